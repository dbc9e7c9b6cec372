#include "smdx/kubetypes/internal/service.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "smdx/kubetypes/internal/defaulters.h"

namespace smdx::internal {

namespace {

// A Service's spec as the Go type reads the fields these rules use: an
// absent string is "", an absent number 0, an absent list empty.
struct Spec {
  std::string type;
  std::string cluster_ip;
  std::vector<std::string> cluster_ips;
  // (Copies: the rules write the spec these came from.)
  Value ip_families;
  std::string ip_family_policy;
  Value allocate_lb_node_ports;  // (a *bool)
  Value load_balancer_class;     // (a *string)
  std::string external_traffic_policy;
  bool external_ips = false;
  int64_t health_check_node_port = 0;
  // Each port's name and node port, in order.
  std::vector<std::pair<std::string, int64_t>> ports;
};

int64_t IntOf(const Value* v) { return v != nullptr && v->IsInt() ? v->AsInt() : 0; }

bool Set(const Value& v) { return !v.IsNull(); }

Spec Read(const Value& service) {
  Spec s;
  const Value* spec = Find(service, "spec");
  if (spec == nullptr || !spec->IsMap()) return s;
  s.type = StringAt(*spec, "type");
  s.cluster_ip = StringAt(*spec, "clusterIP");
  if (const Value* ips = Find(*spec, "clusterIPs"); ips != nullptr && ips->IsList()) {
    for (const Value& ip : ips->list())
      s.cluster_ips.push_back(ip.IsString() ? ip.AsString() : "");
  }
  auto copy = [&](const char* f) {
    const Value* v = Find(*spec, f);
    return v != nullptr ? *v : Value();
  };
  s.ip_families = copy("ipFamilies");
  s.ip_family_policy = StringAt(*spec, "ipFamilyPolicy");
  s.allocate_lb_node_ports = copy("allocateLoadBalancerNodePorts");
  s.load_balancer_class = copy("loadBalancerClass");
  s.external_traffic_policy = StringAt(*spec, "externalTrafficPolicy");
  const Value* eips = Find(*spec, "externalIPs");
  s.external_ips = eips != nullptr && eips->IsList() && !eips->list().empty();
  s.health_check_node_port = IntOf(Find(*spec, "healthCheckNodePort"));
  if (const Value* ports = Find(*spec, "ports"); ports != nullptr && ports->IsList()) {
    for (const Value& p : ports->list())
      s.ports.emplace_back(StringAt(p, "name"), IntOf(Find(p, "nodePort")));
  }
  return s;
}

bool NeedsClusterIP(const Spec& s) { return s.type != "ExternalName"; }

// The storage's needsNodePort (patchAllocatedValues): a LoadBalancer only
// where it allocates node ports.
bool AllocatesNodePorts(const Spec& s) {
  if (s.type == "NodePort") return true;
  return s.type == "LoadBalancer" &&
         (!Set(s.allocate_lb_node_ports) ||
          (s.allocate_lb_node_ports.IsBool() &&
           s.allocate_lb_node_ports.AsBool()));
}

// The strategy's needsNodePort (dropTypeDependentFields).
bool UsesNodePorts(const Spec& s) {
  return s.type == "NodePort" || s.type == "LoadBalancer";
}

bool NeedsHealthCheckNodePort(const Spec& s) {
  return s.type == "LoadBalancer" && s.external_traffic_policy == "Local";
}

bool ExternallyAccessible(const Spec& s) {
  return s.type == "LoadBalancer" || s.type == "NodePort" ||
         (s.type == "ClusterIP" && s.external_ips);
}

std::set<int64_t> NodePorts(const Spec& s) {
  std::set<int64_t> out;
  for (const auto& [name, port] : s.ports) {
    if (port != 0) out.insert(port);
  }
  return out;
}

Value StringList(const std::vector<std::string>& l) {
  List out;
  for (const std::string& s : l) out.emplace_back(s);
  return Value(std::move(out));
}

// Two Go pointers that are both nil, or point to equal values.
bool SamePointer(const Value& v, const Value& w) {
  if (!Set(v) || !Set(w)) return Set(v) == Set(w);
  return Equals(v, w);
}

void SetString(Map& spec, const char* f, const std::string& s) {
  if (s.empty()) {
    spec.Erase(f);
  } else {
    spec.Set(f, Value(s));
  }
}

void SetNodePort(Map& spec, size_t i, int64_t port) {
  Value* ports = spec.Find("ports");
  if (ports == nullptr || !ports->IsList() || i >= ports->list().size())
    return;
  Value& p = ports->list()[i];
  if (!p.IsMap()) return;
  if (port == 0) {
    p.map().Erase("nodePort");
  } else {
    p.map().Set("nodePort", Value(port));
  }
}

std::vector<std::string> Strings(const Value& v) {
  std::vector<std::string> out;
  if (!v.IsList()) return out;
  for (const Value& s : v.list()) out.push_back(s.IsString() ? s.AsString() : "");
  return out;
}

// The storage's familyOf, for an IP the cluster allocated or validated.
std::string FamilyOf(const std::string& ip) {
  if (ip.find(':') != std::string::npos) return "IPv6";
  if (ip.find('.') != std::string::npos) return "IPv4";
  return "unknown";
}

std::string OtherFamily(const std::string& family) {
  return family == "IPv4" ? "IPv6" : "IPv4";
}

// A headless Service without a selector.
bool HeadlessWithoutSelector(const Value& spec, const Spec& s) {
  const Value* selector = Find(spec, "selector");
  return s.cluster_ip == "None" &&
         (selector == nullptr || !selector->IsMap() || selector->map().empty());
}

// The IP family policy initIPFamilyFields gives a Service whose request
// and live object name none.
const char* PolicyByDefault(const Value& spec, const Spec& s) {
  return HeadlessWithoutSelector(spec, s) ? "RequireDualStack" : "SingleStack";
}

// The IP allocator's initIPFamilyFields on an update (storage's
// allocateUpdate, after patchAllocatedValues and normalizeClusterIPs), as
// far as the object decides it: a policy the request leaves out is the
// live one (else SingleStack, or RequireDualStack for a headless Service
// without a selector); a SingleStack Service keeps one cluster IP and one
// family where the request kept the live ones; each cluster IP gives its
// family where the request names none. What the cluster's configuration
// decides, its default family and whether it serves two, is read from the
// live Service, allocated there: its first family, and two families when it
// has two; where the live Service has no families (an ExternalName one,
// or one smdx created, which left them to the cluster), those stay unset
// but for the cluster IPs' own. Requests the allocator refuses are not
// told apart (smdx does not validate).
void IpFamilyFieldsAtUpdate(Value& service, const Spec& old, Spec& now) {
  if (now.type == "ExternalName") return;
  const std::vector<std::string> old_families = Strings(old.ip_families);
  const Value* spec_value = Find(service, "spec");
  if (spec_value == nullptr || !spec_value->IsMap()) return;
  const std::vector<std::string> sent_families = Strings(now.ip_families);
  const bool same_ips = old.cluster_ips == now.cluster_ips;
  // isMatchingPreferDualStackClusterIPFields: nothing to do.
  if (!now.ip_family_policy.empty() && old.type == now.type &&
      (now.type == "ClusterIP" || now.type == "NodePort" ||
       now.type == "LoadBalancer") &&
      now.ip_family_policy == "PreferDualStack" &&
      (old.ip_family_policy.empty() ||
       old.ip_family_policy == "PreferDualStack") &&
      same_ips && old_families == sent_families) {
    return;
  }
  const bool headless_selectorless = HeadlessWithoutSelector(*spec_value, now);
  std::string policy = now.ip_family_policy;
  if (policy.empty()) {
    policy = !old.ip_family_policy.empty() ? old.ip_family_policy
                                           : PolicyByDefault(*spec_value, now);
  }
  std::vector<std::string> ips = now.cluster_ips;
  std::vector<std::string> families = sent_families;
  if (policy == "SingleStack") {
    if (same_ips && ips.size() > 1) ips.resize(1);
    if (old_families == families && families.size() > 1) families.resize(1);
  }
  for (size_t i = 0; i < ips.size(); ++i) {
    if (ips[i] == "None") break;
    if (i >= families.size()) families.push_back(FamilyOf(ips[i]));
  }
  if (families.empty() && !old_families.empty())
    families.push_back(old_families[0]);
  if (!families.empty() && families.size() < 2 && policy != "SingleStack" &&
      (headless_selectorless || old_families.size() == 2)) {
    families.push_back(OtherFamily(families[0]));
  }
  // Written (and so unshared) only where something changes; `now` follows.
  if (policy != now.ip_family_policy) {
    now.ip_family_policy = policy;
    EnsureMap(service.map(), "spec").Set("ipFamilyPolicy", Value(policy));
  }
  if (ips != now.cluster_ips) {
    now.cluster_ips = ips;
    EnsureMap(service.map(), "spec").Set("clusterIPs", StringList(ips));
  }
  if (!families.empty() && families != sent_families) {
    now.ip_families = StringList(families);
    EnsureMap(service.map(), "spec").Set("ipFamilies", now.ip_families);
  }
}

}  // namespace

void ServiceAsRead(Value& service) {
  const Value* spec = Find(service, "spec");
  if (spec == nullptr || StringAt(*spec, "type") != "ExternalName") return;
  if (Find(*spec, "internalTrafficPolicy") != nullptr)
    EnsureMap(service.map(), "spec").Erase("internalTrafficPolicy");
}

void ServiceAtCreate(Value& service) {
  ServiceAsRead(service);
  const Spec s = Read(service);
  if (!s.cluster_ip.empty() && s.cluster_ips.empty()) {
    EnsureMap(service.map(), "spec")
        .Set("clusterIPs", StringList({s.cluster_ip}));
  }
  const Value* spec = Find(service, "spec");
  if (spec != nullptr && spec->IsMap() && NeedsClusterIP(s) &&
      s.ip_family_policy.empty()) {
    EnsureMap(service.map(), "spec")
        .Set("ipFamilyPolicy", Value(PolicyByDefault(*spec, s)));
  }
}

void ServiceAtUpdate(Value& service, const Value& live) {
  if (!service.IsMap()) return;
  const Spec old = Read(live);
  Spec now = Read(service);
  // The spec, written (and so unshared) only where something changes.
  auto spec = [&]() -> Map& { return EnsureMap(service.map(), "spec"); };
  auto erase = [&](const char* f) {
    const Value* s = Find(service, "spec");
    if (s != nullptr && Find(*s, f) != nullptr) spec().Erase(f);
  };

  // patchAllocatedValues.
  if (NeedsClusterIP(old) && NeedsClusterIP(now)) {
    if (now.cluster_ip.empty() && !old.cluster_ip.empty()) {
      now.cluster_ip = old.cluster_ip;
      SetString(spec(), "clusterIP", now.cluster_ip);
    }
    if (now.cluster_ips.empty() && !old.cluster_ips.empty()) {
      now.cluster_ips = old.cluster_ips;
      spec().Set("clusterIPs", StringList(now.cluster_ips));
    }
  }
  if (AllocatesNodePorts(old) && AllocatesNodePorts(now)) {
    std::set<int64_t> used;
    const std::set<int64_t> old_ports = NodePorts(old);
    for (int64_t p : NodePorts(now)) {
      if (old_ports.count(p) > 0) used.insert(p);
    }
    std::map<std::string, int64_t> by_name;
    for (const auto& [name, port] : old.ports) by_name[name] = port;
    for (size_t i = 0; i < now.ports.size(); ++i) {
      if (now.ports[i].second != 0) continue;
      auto it = by_name.find(now.ports[i].first);
      const int64_t was = it != by_name.end() ? it->second : 0;
      if (was != 0 && used.count(was) == 0) {
        now.ports[i].second = was;
        SetNodePort(spec(), i, was);
      }
    }
  }
  if (NeedsHealthCheckNodePort(old) && NeedsHealthCheckNodePort(now) &&
      now.health_check_node_port == 0 && old.health_check_node_port != 0) {
    now.health_check_node_port = old.health_check_node_port;
    spec().Set("healthCheckNodePort", Value(now.health_check_node_port));
  }

  // normalizeClusterIPs (the storage's sameClusterIPs: the plural alone).
  if (!old.cluster_ips.empty() && now.cluster_ips.empty() &&
      old.cluster_ip == now.cluster_ip) {
    now.cluster_ips = old.cluster_ips;
    spec().Set("clusterIPs", StringList(now.cluster_ips));
  }
  if (old.cluster_ip != now.cluster_ip && old.cluster_ips == now.cluster_ips) {
    if (!old.cluster_ip.empty() && now.cluster_ip.empty()) {
      now.cluster_ips.clear();
      erase("clusterIPs");
    } else {
      now.cluster_ips = {now.cluster_ip};
      spec().Set("clusterIPs", StringList(now.cluster_ips));
    }
  }

  IpFamilyFieldsAtUpdate(service, old, now);

  // dropTypeDependentFields (the strategy's sameClusterIPs: both forms).
  if (NeedsClusterIP(old) && !NeedsClusterIP(now)) {
    if (old.cluster_ip == now.cluster_ip && old.cluster_ips == now.cluster_ips) {
      erase("clusterIP");
      erase("clusterIPs");
    }
    // (reflect.DeepEqual of two slices read from storage and a request:
    // nil and empty differ, but storage reads no empty slice back.)
    if (SamePointer(old.ip_families, now.ip_families))
      erase("ipFamilies");
    if (old.ip_family_policy == now.ip_family_policy)
      erase("ipFamilyPolicy");
  }
  if (UsesNodePorts(old) && !UsesNodePorts(now)) {
    const std::set<int64_t> old_ports = NodePorts(old);
    bool superset = true;
    for (int64_t p : NodePorts(now)) superset = superset && old_ports.count(p);
    if (superset) {
      for (size_t i = 0; i < now.ports.size(); ++i) {
        if (now.ports[i].second != 0) SetNodePort(spec(), i, 0);
      }
    }
  }
  if (NeedsHealthCheckNodePort(old) && !NeedsHealthCheckNodePort(now) &&
      old.health_check_node_port == now.health_check_node_port) {
    erase("healthCheckNodePort");
  }
  if (old.type == "LoadBalancer" && now.type != "LoadBalancer" &&
      Set(now.allocate_lb_node_ports) && Set(old.allocate_lb_node_ports) &&
      Equals(now.allocate_lb_node_ports, old.allocate_lb_node_ports)) {
    erase("allocateLoadBalancerNodePorts");
  }
  if (old.type == "LoadBalancer" && now.type != "LoadBalancer" &&
      SamePointer(old.load_balancer_class, now.load_balancer_class)) {
    erase("loadBalancerClass");
  }
  if (ExternallyAccessible(old) && !ExternallyAccessible(now) &&
      old.external_traffic_policy == now.external_traffic_policy) {
    erase("externalTrafficPolicy");
  }
  if (now.type != "LoadBalancer") {
    Map& status = EnsureMap(service.map(), "status");
    const Value* lb = status.Find("loadBalancer");
    if (lb == nullptr || !lb->IsMap() || !lb->map().empty())
      status.Set("loadBalancer", Value::MakeMap());
  }
}

}  // namespace smdx::internal
