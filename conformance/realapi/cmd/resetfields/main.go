// Command resetfields writes the fields each built-in kind's registry
// strategy resets (its GetResetFields), as data for smdx
// (smdx/fieldmanager/reset_fields_table.inc):
//
//	go run ./cmd/resetfields > ../../smdx/fieldmanager/reset_fields_table.inc
//
// A write to a kind's main endpoint keeps the live value of what its
// strategy resets (the status, mostly), and a write to its status endpoint
// keeps the rest; the field manager does not record the request's values
// of those fields. The facts come from calling GetResetFields on the
// strategies of Kubernetes' own registries (k8s.io/kubernetes/pkg/registry,
// the apiextensions-apiserver's and kube-aggregator's), at the versions
// go.mod pins. Each line: API group, kind, endpoint ("" or a subresource),
// the apiVersions the strategy names, and the dotted paths it resets there.
//
// A Pod's resize and ephemeralcontainers endpoints are not here: their
// strategies name what they keep by a filter (GetResetFieldsFilter), but
// their REST storage (ResizeREST, EphemeralContainersREST in
// pkg/registry/core/pod/storage) does not offer it, so the apiserver's
// field manager resets nothing there.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	crdregistry "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/lifecycle/eviction"
	"k8s.io/kubernetes/pkg/registry/lifecycle/evictionrequest"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourcepoolstatusrequest"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

type resetter interface {
	GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set
}

// One endpoint of a kind, and its strategy.
type endpoint struct {
	group, kind, subresource string
	strategy                 resetter
}

func endpoints() []endpoint {
	// The strategies' constructors' arguments (clients, authorizers,
	// clocks, schemes) play no part in GetResetFields.
	var typer runtime.ObjectTyper
	vap := validatingadmissionpolicy.NewStrategy(nil, nil)
	claim := resourceclaim.NewStrategy(nil, nil)
	pcr := podcertificaterequest.NewStrategy()
	evict := eviction.NewStrategy(nil)
	evictReq := evictionrequest.NewStrategy()
	pg := podgroup.NewStrategy()
	cpg := compositepodgroup.NewStrategy()
	return []endpoint{
		{"", "Pod", "", pod.Strategy},
		{"", "Pod", "status", pod.StatusStrategy},
		{"", "Service", "", service.Strategy},
		{"", "Service", "status", service.StatusStrategy},
		{"", "Node", "", node.Strategy},
		{"", "Node", "status", node.StatusStrategy},
		{"", "Namespace", "", namespace.Strategy},
		{"", "Namespace", "status", namespace.StatusStrategy},
		{"", "Namespace", "finalize", namespace.FinalizeStrategy},
		{"", "PersistentVolume", "", persistentvolume.Strategy},
		{"", "PersistentVolume", "status", persistentvolume.StatusStrategy},
		{"", "PersistentVolumeClaim", "", persistentvolumeclaim.Strategy},
		{"", "PersistentVolumeClaim", "status", persistentvolumeclaim.StatusStrategy},
		{"", "ReplicationController", "", replicationcontroller.Strategy},
		{"", "ReplicationController", "status", replicationcontroller.StatusStrategy},
		{"", "ResourceQuota", "", resourcequota.Strategy},
		{"", "ResourceQuota", "status", resourcequota.StatusStrategy},
		{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "", vap},
		{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "status", validatingadmissionpolicy.NewStatusStrategy(vap)},
		{"apiextensions.k8s.io", "CustomResourceDefinition", "", crdregistry.NewStrategy(typer)},
		{"apiextensions.k8s.io", "CustomResourceDefinition", "status", crdregistry.NewStatusStrategy(typer)},
		{"apiregistration.k8s.io", "APIService", "", apiservice.NewStrategy(typer)},
		{"apiregistration.k8s.io", "APIService", "status", apiservice.NewStatusStrategy(typer)},
		{"apps", "DaemonSet", "", daemonset.Strategy},
		{"apps", "DaemonSet", "status", daemonset.StatusStrategy},
		{"apps", "Deployment", "", deployment.Strategy},
		{"apps", "Deployment", "status", deployment.StatusStrategy},
		{"apps", "ReplicaSet", "", replicaset.Strategy},
		{"apps", "ReplicaSet", "status", replicaset.StatusStrategy},
		{"apps", "StatefulSet", "", statefulset.Strategy},
		{"apps", "StatefulSet", "status", statefulset.StatusStrategy},
		{"autoscaling", "HorizontalPodAutoscaler", "", horizontalpodautoscaler.Strategy},
		{"autoscaling", "HorizontalPodAutoscaler", "status", horizontalpodautoscaler.StatusStrategy},
		{"batch", "CronJob", "", cronjob.Strategy},
		{"batch", "CronJob", "status", cronjob.StatusStrategy},
		{"batch", "Job", "", job.Strategy},
		{"batch", "Job", "status", job.StatusStrategy},
		{"certificates.k8s.io", "CertificateSigningRequest", "", certificates.Strategy},
		{"certificates.k8s.io", "CertificateSigningRequest", "status", certificates.StatusStrategy},
		{"certificates.k8s.io", "CertificateSigningRequest", "approval", certificates.ApprovalStrategy},
		{"certificates.k8s.io", "PodCertificateRequest", "", pcr},
		{"certificates.k8s.io", "PodCertificateRequest", "status", podcertificaterequest.NewStatusStrategy(pcr, nil, nil)},
		{"flowcontrol.apiserver.k8s.io", "FlowSchema", "", flowschema.Strategy},
		{"flowcontrol.apiserver.k8s.io", "FlowSchema", "status", flowschema.StatusStrategy},
		{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "", prioritylevelconfiguration.Strategy},
		{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "status", prioritylevelconfiguration.StatusStrategy},
		{"internal.apiserver.k8s.io", "StorageVersion", "", storageversion.Strategy},
		{"internal.apiserver.k8s.io", "StorageVersion", "status", storageversion.StatusStrategy},
		{"lifecycle.k8s.io", "Eviction", "", evict},
		{"lifecycle.k8s.io", "Eviction", "status", eviction.NewStatusStrategy(evict)},
		{"lifecycle.k8s.io", "EvictionRequest", "", evictReq},
		{"lifecycle.k8s.io", "EvictionRequest", "status", evictionrequest.NewStatusStrategy(evictReq)},
		{"networking.k8s.io", "Ingress", "", ingress.Strategy},
		{"networking.k8s.io", "Ingress", "status", ingress.StatusStrategy},
		{"networking.k8s.io", "ServiceCIDR", "", servicecidr.Strategy},
		{"networking.k8s.io", "ServiceCIDR", "status", servicecidr.StatusStrategy},
		{"policy", "PodDisruptionBudget", "", poddisruptionbudget.Strategy},
		{"policy", "PodDisruptionBudget", "status", poddisruptionbudget.StatusStrategy},
		{"resource.k8s.io", "DeviceTaintRule", "", devicetaintrule.Strategy},
		{"resource.k8s.io", "DeviceTaintRule", "status", devicetaintrule.StatusStrategy},
		{"resource.k8s.io", "ResourceClaim", "", claim},
		{"resource.k8s.io", "ResourceClaim", "status", resourceclaim.NewStatusStrategy(claim)},
		{"resource.k8s.io", "ResourcePoolStatusRequest", "", resourcepoolstatusrequest.Strategy},
		{"resource.k8s.io", "ResourcePoolStatusRequest", "status", resourcepoolstatusrequest.StatusStrategy},
		{"scheduling.k8s.io", "CompositePodGroup", "", cpg},
		{"scheduling.k8s.io", "CompositePodGroup", "status", compositepodgroup.NewStatusStrategy(cpg)},
		{"scheduling.k8s.io", "PodGroup", "", pg},
		{"scheduling.k8s.io", "PodGroup", "status", podgroup.NewStatusStrategy(pg)},
		{"storage.k8s.io", "CSINode", "", csinode.Strategy},
		{"storage.k8s.io", "CSINode", "status", csinode.StatusStrategy},
		{"storage.k8s.io", "VolumeAttachment", "", volumeattachment.Strategy},
		{"storage.k8s.io", "VolumeAttachment", "status", volumeattachment.StatusStrategy},
		{"storagemigration.k8s.io", "StorageVersionMigration", "", storagemigration.Strategy},
		{"storagemigration.k8s.io", "StorageVersionMigration", "status", storagemigration.StatusStrategy},
	}
}

// dotted is `p` as field names joined by dots; an element that is not a
// field name (a list key, say) has no such form.
func dotted(p fieldpath.Path) (string, error) {
	names := make([]string, 0, len(p))
	for _, pe := range p {
		if pe.FieldName == nil {
			return "", fmt.Errorf("%s: not a path of field names", p)
		}
		names = append(names, *pe.FieldName)
	}
	return strings.Join(names, "."), nil
}

func run() error {
	var out strings.Builder
	out.WriteString("// Generated by conformance/realapi/cmd/resetfields from Kubernetes v1.37.2's\n")
	out.WriteString("// registry strategies (GetResetFields); do not edit. Kept apart from\n")
	out.WriteString("// reset_fields.cc as data: group, kind, endpoint, apiVersions, paths.\n")
	out.WriteString("// clang-format off\n")
	for _, e := range endpoints() {
		byVersion := map[string][]string{}
		for v, set := range e.strategy.GetResetFields() {
			var paths []string
			var failed error
			set.Iterate(func(p fieldpath.Path) {
				d, err := dotted(p)
				if err != nil && failed == nil {
					failed = fmt.Errorf("%s %s %q: %v", e.group, e.kind, e.subresource, err)
				}
				paths = append(paths, d)
			})
			if failed != nil {
				return failed
			}
			sort.Strings(paths)
			key := strings.Join(paths, " ")
			byVersion[key] = append(byVersion[key], string(v))
		}
		// One line per set of paths, its apiVersions in order.
		keys := make([]string, 0, len(byVersion))
		for k := range byVersion {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			versions := byVersion[k]
			sort.Strings(versions)
			fmt.Fprintf(&out, "{%q, %q, %q, %q, %q},\n", e.group, e.kind, e.subresource,
				strings.Join(versions, " "), k)
		}
	}
	out.WriteString("// clang-format on\n")
	_, err := os.Stdout.WriteString(out.String())
	return err
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "resetfields:", err)
		os.Exit(1)
	}
}
