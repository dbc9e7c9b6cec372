// What the Service registry of a kube-apiserver v1.37 does to a written
// Service beyond its defaulters, where it depends on the object and the
// live one alone (pkg/registry/core/service: the storage's beginCreate and
// beginUpdate hooks and the strategy's PrepareForUpdate). Allocating
// cluster IPs and node ports, and the IP families that come with them, is
// the cluster's and stays unset. Internal to kubetypes/ (registry.cc).
#ifndef SMDX_KUBETYPES_INTERNAL_SERVICE_H_
#define SMDX_KUBETYPES_INTERNAL_SERVICE_H_

#include "smdx/value/value.h"

namespace smdx::internal {

// At create: a clusterIP without clusterIPs (an older client's) fills
// clusterIPs (normalizeClusterIPs), so a headless Service's "None" shows
// in both; a Service other than ExternalName without an IP family policy
// gets SingleStack, or RequireDualStack where it is headless without a
// selector (the IP allocator's initIPFamilyFields: the policy depends on
// the object alone, the families it then allocates on the cluster).
void ServiceAtCreate(Value& service);

// A written Service as every read gives it (defaultOnReadService, the part
// that depends on the object alone): an ExternalName Service without its
// internalTrafficPolicy.
void ServiceAsRead(Value& service);

// At an update of the main resource, in the registry's order:
//   - patchAllocatedValues: a cluster IP, cluster IPs, node ports (by port
//     name, where not taken by another port) and a health check node port
//     the request left out are the live Service's, where both types use
//     them;
//   - normalizeClusterIPs: clusterIPs follow a clusterIP the request kept or
//     changed alone;
//   - dropTypeDependentFields: a type change drops what the old type
//     needed and the new one does not, where the request left it as it
//     was (cluster IPs and IP families for ExternalName; node ports; the
//     health check node port; allocateLoadBalancerNodePorts and
//     loadBalancerClass when leaving LoadBalancer; externalTrafficPolicy
//     when no longer reachable from outside), and a type other than
//     LoadBalancer empties status.loadBalancer.
void ServiceAtUpdate(Value& service, const Value& live);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_SERVICE_H_
