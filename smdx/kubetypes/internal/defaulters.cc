#include "smdx/kubetypes/internal/defaulters.h"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "smdx/kubetypes/internal/hpa.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::internal {

namespace {

// ---- Reading and writing the fields of a struct -------------------------

const Value* Get(const Map& m, absl::string_view f) { return m.Find(f); }

// The map under `f`, or nullptr.
Map* MapAt(Map& m, absl::string_view f) {
  Value* v = m.Find(f);
  return v != nullptr && v->IsMap() ? &v->map() : nullptr;
}

std::string Str(const Map& m, absl::string_view f) {
  const Value* v = m.Find(f);
  return v != nullptr && v->IsString() ? v->AsString() : std::string();
}

// A pointer field: unset when absent or null.
bool Nil(const Map& m, absl::string_view f) {
  const Value* v = m.Find(f);
  return v == nullptr || v->IsNull();
}

// A value field: unset when absent, null or its zero ("", 0, false, empty).
bool Zero(const Map& m, absl::string_view f) {
  const Value* v = m.Find(f);
  return v == nullptr || IsGoEmpty(GoKind::kString, *v);
}

void SetIfNil(Map& m, absl::string_view f, Value v) {
  if (Nil(m, f)) m.Set(f, std::move(v));
}
void SetIfZero(Map& m, absl::string_view f, Value v) {
  if (Zero(m, f)) m.Set(f, std::move(v));
}

// The map under `f` for reading (no copy of a shared node), or nullptr.
const Map* RMap(const Map& m, absl::string_view f) {
  const Value* v = m.Find(f);
  return v != nullptr && v->IsMap() ? &v->map() : nullptr;
}

// fn(item), writable, for each map item of the list under `f` for which
// need(item) holds. Reads go through const views, so that the items that
// need nothing (all of them, in an object that was defaulted before) stay
// shared with the object they came from.
template <typename Need, typename Fn>
void ForEachItem(Map& m, absl::string_view f, Need need, Fn fn) {
  const Value* cv = static_cast<const Map&>(m).Find(f);
  if (cv == nullptr || !cv->IsList()) return;
  for (size_t i = 0; i < cv->list().size(); ++i) {
    const Value& item = cv->list()[i];
    if (!item.IsMap() || !need(item.map())) continue;
    fn(m.Find(f)->list()[i].map());
  }
}

Value I(int64_t n) { return Value(n); }
Value S(const char* s) { return Value(s); }

// ---- Image references ---------------------------------------------------

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// alphanumeric (separator alphanumeric)*, separator = [._] | __ | -+
bool IsPathComponent(absl::string_view s) {
  size_t i = 0;
  auto alnum = [&] {
    size_t start = i;
    while (i < s.size() && IsLowerAlnum(s[i])) ++i;
    return i > start;
  };
  if (!alnum()) return false;
  while (i < s.size()) {
    if (s[i] == '.') {
      ++i;
    } else if (s[i] == '_') {
      ++i;
      if (i < s.size() && s[i] == '_') ++i;
    } else if (s[i] == '-') {
      while (i < s.size() && s[i] == '-') ++i;
    } else {
      return false;
    }
    if (!alnum()) return false;
  }
  return true;
}

bool IsDomainComponent(absl::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  }
  return true;
}

bool IsDomain(absl::string_view d) {
  absl::string_view host = d;
  size_t port_at = absl::string_view::npos;
  if (!d.empty() && d.front() == '[') {
    size_t close = d.find(']');
    if (close == absl::string_view::npos) return false;
    host = d.substr(0, close + 1);
    if (close + 1 < d.size()) {
      if (d[close + 1] != ':') return false;
      port_at = close + 1;
    }
  } else if (size_t colon = d.rfind(':'); colon != absl::string_view::npos) {
    host = d.substr(0, colon);
    port_at = colon;
  }
  if (port_at != absl::string_view::npos) {
    absl::string_view port = d.substr(port_at + 1);
    if (port.empty()) return false;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
  }
  if (!host.empty() && host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return false;
    for (char c : host.substr(1, host.size() - 2)) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':') {
        return false;
      }
    }
    return true;
  }
  for (absl::string_view part : absl::StrSplit(host, '.')) {
    if (!IsDomainComponent(part)) return false;
  }
  return true;
}

bool IsTag(absl::string_view t) {
  if (t.empty() || t.size() > 128) return false;
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  if (!word(t[0])) return false;
  for (char c : t.substr(1)) {
    if (!word(c) && c != '.' && c != '-') return false;
  }
  return true;
}

bool IsDigest(absl::string_view d) {
  size_t colon = d.find(':');
  if (colon == absl::string_view::npos || colon == 0) return false;
  absl::string_view alg = d.substr(0, colon), hex = d.substr(colon + 1);
  if (!std::isalpha(static_cast<unsigned char>(alg[0]))) return false;
  for (char c : alg) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' &&
        c != '+' && c != '.') {
      return false;
    }
  }
  if (hex.size() < 32) return false;
  for (char c : hex) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  // go-digest checks the length of the algorithms it knows.
  if (alg == "sha256" && hex.size() != 64) return false;
  if (alg == "sha512" && hex.size() != 128) return false;
  return true;
}

}  // namespace

Map& EnsureMap(Map& m, absl::string_view f) {
  Value* v = m.Find(f);
  if (v == nullptr || !v->IsMap()) {
    m.Set(f, Value::MakeMap());
    v = m.Find(f);
  }
  return v->map();
}

std::string ImageTag(absl::string_view image) {
  absl::string_view name = image;
  bool digested = false;
  if (size_t at = name.find('@'); at != absl::string_view::npos) {
    if (!IsDigest(name.substr(at + 1))) return "";
    digested = true;
    name = name.substr(0, at);
  }
  std::string tag;
  size_t slash = name.rfind('/');
  size_t colon = name.rfind(':');
  if (colon != absl::string_view::npos &&
      (slash == absl::string_view::npos || colon > slash)) {
    tag = std::string(name.substr(colon + 1));
    name = name.substr(0, colon);
    if (!IsTag(tag)) return "";
  }
  if (name.empty() || name.size() > 255) return "";
  std::vector<absl::string_view> parts = absl::StrSplit(name, '/');
  size_t first = 0;
  // docker's splitDockerDomain: the first part names a registry when it has
  // a dot, a port, uppercase letters or is localhost.
  if (parts.size() > 1) {
    absl::string_view d = parts[0];
    bool upper = false;
    for (char c : d) upper |= (c >= 'A' && c <= 'Z');
    if (absl::StrContains(d, '.') || absl::StrContains(d, ':') ||
        d == "localhost" || upper) {
      if (!IsDomain(d)) return "";
      first = 1;
    }
  }
  for (size_t i = first; i < parts.size(); ++i) {
    if (!IsPathComponent(parts[i])) return "";
  }
  // A 64-hex name alone is an image ID, not a repository.
  if (first == 0 && parts.size() == 1 && parts[0].size() == 64) {
    bool hex = true;
    for (char c : parts[0]) hex &= (std::isdigit(c) || (c >= 'a' && c <= 'f'));
    if (hex) return "";
  }
  if (tag.empty() && !digested) return "latest";
  return tag;
}

namespace {

// ---- core/v1 --------------------------------------------------------------

void PullPolicyFromImage(Map& m, absl::string_view policy_field,
                         absl::string_view image_field) {
  if (!Zero(m, policy_field)) return;
  m.Set(
      policy_field,
      S(ImageTag(Str(m, image_field)) == "latest" ? "Always" : "IfNotPresent"));
}

void Container(Map& m, const GoStruct&) {
  PullPolicyFromImage(m, "imagePullPolicy", "image");
  SetIfZero(m, "terminationMessagePath", S("/dev/termination-log"));
  SetIfZero(m, "terminationMessagePolicy", S("File"));
}

void Volume(Map& m, const GoStruct& go) {
  // Every pointer field of a Volume is one of its inlined VolumeSource's.
  bool none = true;
  for (const GoField& f : go.fields) {
    if (f.kind == GoKind::kPointer && !Nil(m, f.name)) none = false;
  }
  if (none) m.Set("emptyDir", Value::MakeMap());
  if (Map* image = MapAt(m, "image")) {
    PullPolicyFromImage(*image, "pullPolicy", "reference");
  }
}

void Service(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  SetIfZero(spec, "sessionAffinity", S("None"));
  const std::string affinity = Str(spec, "sessionAffinity");
  if (affinity == "None") spec.Erase("sessionAffinityConfig");
  if (affinity == "ClientIP") {
    const Map* config = MapAt(spec, "sessionAffinityConfig");
    const Map* client = config != nullptr
                            ? MapAt(const_cast<Map&>(*config), "clientIP")
                            : nullptr;
    if (client == nullptr || Nil(*client, "timeoutSeconds")) {
      Map c;
      c.Set("timeoutSeconds", I(10800));
      Map sac;
      sac.Set("clientIP", Value(std::move(c)));
      spec.Set("sessionAffinityConfig", Value(std::move(sac)));
    }
  }
  SetIfZero(spec, "type", S("ClusterIP"));
  const std::string type = Str(spec, "type");
  ForEachItem(
      spec, "ports",
      [](const Map& port) {
        return Zero(port, "protocol") || Zero(port, "targetPort");
      },
      [](Map& port) {
        SetIfZero(port, "protocol", S("TCP"));
        // TargetPort is an IntOrString: 0 and "" are both unset.
        if (Zero(port, "targetPort")) {
          const Value* p = Get(port, "port");
          port.Set("targetPort", p != nullptr && p->IsInt() ? *p : I(0));
        }
      });
  const Value* external = Get(spec, "externalIPs");
  bool externally_accessible =
      type == "LoadBalancer" || type == "NodePort" ||
      (type == "ClusterIP" && external != nullptr && external->IsList() &&
       !external->list().empty());
  if (externally_accessible) {
    SetIfZero(spec, "externalTrafficPolicy", S("Cluster"));
  }
  if (type == "NodePort" || type == "LoadBalancer" || type == "ClusterIP") {
    SetIfNil(spec, "internalTrafficPolicy", S("Cluster"));
  }
  if (type == "LoadBalancer") {
    SetIfNil(spec, "allocateLoadBalancerNodePorts", Value(true));
    if (Map* status = MapAt(m, "status")) {
      if (Map* lb = MapAt(*status, "loadBalancer")) {
        ForEachItem(
            *lb, "ingress",
            [](const Map& ing) {
              return !Zero(ing, "ip") && Nil(ing, "ipMode");
            },
            [](Map& ing) { ing.Set("ipMode", S("VIP")); });
      }
    }
  }
}

// Requests default to limits, per container of a Pod (not of templates).
bool NeedsRequestsFromLimits(const Map& container) {
  const Map* resources = RMap(container, "resources");
  const Map* limits =
      resources != nullptr ? RMap(*resources, "limits") : nullptr;
  if (limits == nullptr) return false;
  const Map* requests = RMap(*resources, "requests");
  for (const MapEntry& e : *limits) {
    if (requests == nullptr || requests->Find(e.key) == nullptr) return true;
  }
  return false;
}

void RequestsFromLimits(Map& container) {
  Map* resources = MapAt(container, "resources");
  if (resources == nullptr) return;
  const Value* limits = Get(*resources, "limits");
  if (limits == nullptr || !limits->IsMap()) return;
  Value lim = *limits;
  Map& requests = EnsureMap(*resources, "requests");
  for (const MapEntry& e : lim.map()) {
    if (requests.Find(e.key) == nullptr) requests.Set(e.key, e.value);
  }
}

bool NeedsHostPorts(const Map& container) {
  const Value* ports = container.Find("ports");
  if (ports == nullptr || !ports->IsList()) return false;
  for (const Value& p : ports->list()) {
    if (p.IsMap() && Zero(p.map(), "hostPort") && p.map().Find("containerPort"))
      return true;
  }
  return false;
}

void Pod(Map& m, const GoStruct&) {
  const Map* rspec = RMap(m, "spec");
  if (rspec == nullptr) return;  // the Go type made it; a non-map is invalid
  const Value* g = rspec->Find("terminationGracePeriodSeconds");
  const Value* hn = rspec->Find("hostNetwork");
  const bool host_network = hn != nullptr && hn->IsBool() && hn->AsBool();
  // What a Pod that was defaulted before needs: nothing, and its spec stays
  // shared.
  bool need = (g != nullptr && g->IsInt() && g->AsInt() < 0) ||
              Nil(*rspec, "enableServiceLinks");
  for (const char* list : {"containers", "initContainers"}) {
    const Value* cs = rspec->Find(list);
    if (cs == nullptr || !cs->IsList()) continue;
    for (const Value& c : cs->list()) {
      if (!c.IsMap()) continue;
      need |= NeedsRequestsFromLimits(c.map()) ||
              (host_network && NeedsHostPorts(c.map()));
    }
  }
  if (!need) return;
  Map& spec = EnsureMap(m, "spec");
  if (g != nullptr && g->IsInt() && g->AsInt() < 0) {
    spec.Set("terminationGracePeriodSeconds", I(1));
  }
  for (const char* list : {"containers", "initContainers"}) {
    ForEachItem(spec, list, NeedsRequestsFromLimits, RequestsFromLimits);
  }
  SetIfNil(spec, "enableServiceLinks", Value(true));
  if (host_network) {
    for (const char* list : {"containers", "initContainers"}) {
      ForEachItem(spec, list, NeedsHostPorts, [](Map& c) {
        ForEachItem(
            c, "ports",
            [](const Map& p) {
              return Zero(p, "hostPort") && p.Find("containerPort");
            },
            [](Map& p) { p.Set("hostPort", *p.Find("containerPort")); });
      });
    }
  }
}

void PodStatus(Map& m, const GoStruct&) {
  const std::string ip = Str(m, "podIP");
  const Value* ips = Get(m, "podIPs");
  bool has_ips = ips != nullptr && ips->IsList() && !ips->list().empty();
  auto single = [&] {
    Map item;
    item.Set("ip", Value(ip));
    List l;
    l.push_back(Value(std::move(item)));
    m.Set("podIPs", Value(std::move(l)));
  };
  if (!ip.empty() && !has_ips) {
    single();
  } else if (ip.empty() && has_ips) {
    const Value& first = ips->list()[0];
    m.Set("podIP", Value(first.IsMap() ? StringAt(first, "ip") : ""));
  } else if (!ip.empty() && has_ips) {
    const Value& first = ips->list()[0];
    if (!first.IsMap() || StringAt(first, "ip") != ip) single();
  }
}

void PodSpec(Map& m, const GoStruct&) {
  // The deprecated serviceAccount follows serviceAccountName, which it
  // fills when unset. Both are omitempty strings: "" is dropped.
  std::string name = Str(m, "serviceAccountName");
  if (name.empty()) name = Str(m, "serviceAccount");
  for (const char* f : {"serviceAccountName", "serviceAccount"}) {
    if (name.empty()) {
      m.Erase(f);
    } else if (Str(m, f) != name) {
      m.Set(f, Value(name));
    }
  }
  SetIfZero(m, "dnsPolicy", S("ClusterFirst"));
  SetIfZero(m, "restartPolicy", S("Always"));
  SetIfNil(m, "securityContext", Value::MakeMap());
  SetIfNil(m, "terminationGracePeriodSeconds", I(30));
  SetIfZero(m, "schedulerName", S("default-scheduler"));
}

void Namespace(Map& m, const GoStruct&) {
  Map* meta = MapAt(m, "metadata");
  if (meta == nullptr) return;
  std::string name = Str(*meta, "name");
  if (name.empty()) return;
  EnsureMap(*meta, "labels").Set("kubernetes.io/metadata.name", Value(name));
}

void PersistentVolume(Map& m, const GoStruct&) {
  SetIfZero(EnsureMap(m, "status"), "phase", S("Pending"));
  Map& spec = EnsureMap(m, "spec");
  SetIfZero(spec, "persistentVolumeReclaimPolicy", S("Retain"));
  SetIfNil(spec, "volumeMode", S("Filesystem"));
}

void PersistentVolumeClaim(Map& m, const GoStruct&) {
  SetIfZero(EnsureMap(m, "status"), "phase", S("Pending"));
}

void NodeStatus(Map& m, const GoStruct&) {
  if (Nil(m, "allocatable") && !Nil(m, "capacity")) {
    m.Set("allocatable", *Get(m, "capacity"));
  }
}

void LimitRangeItem(Map& m, const GoStruct&) {
  if (Str(m, "type") != "Container") return;
  // Default takes Max's values, DefaultRequest Default's and then Min's.
  Value max = Get(m, "max") != nullptr ? *Get(m, "max") : Value();
  Value min = Get(m, "min") != nullptr ? *Get(m, "min") : Value();
  Map& def = EnsureMap(m, "default");
  if (max.IsMap()) {
    for (const MapEntry& e : max.map()) {
      if (def.Find(e.key) == nullptr) def.Set(e.key, e.value);
    }
  }
  Value def_copy = *m.Find("default");
  Map& req = EnsureMap(m, "defaultRequest");
  for (const MapEntry& e : def_copy.map()) {
    if (req.Find(e.key) == nullptr) req.Set(e.key, e.value);
  }
  if (min.IsMap()) {
    for (const MapEntry& e : min.map()) {
      if (req.Find(e.key) == nullptr) req.Set(e.key, e.value);
    }
  }
  // Empty maps of these omitempty fields are dropped by the encoding.
  for (const char* f : {"default", "defaultRequest"}) {
    if (const Value* v = m.Find(f); v->IsMap() && v->map().empty()) m.Erase(f);
  }
}

void ReplicationController(Map& m, const GoStruct&) {
  Map* spec = MapAt(m, "spec");
  if (spec == nullptr) return;
  Map* tmpl = MapAt(*spec, "template");
  if (tmpl == nullptr) return;
  Map* tmeta = MapAt(*tmpl, "metadata");
  const Value* labels = tmeta != nullptr ? Get(*tmeta, "labels") : nullptr;
  if (labels == nullptr || !labels->IsMap()) return;
  Value l = *labels;
  if (Zero(*spec, "selector")) spec->Set("selector", l);
  Map& meta = EnsureMap(m, "metadata");
  if (Zero(meta, "labels") && !l.map().empty()) meta.Set("labels", l);
}

// ---- Conversions ------------------------------------------------------------
// A request body of a v1 kind is converted to the internal version and back
// before the field manager sees it; these are the conversions that change
// it (pkg/apis/*/v1/conversion.go), and the pointer fields whose internal
// counterparts are values (nil becomes the zero value).

// An annotation the internal version holds as an integer field: written
// back canonically (strconv.FormatInt), or `absent` when there is none.
void IntAnnotation(Map& m, const char* key, const char* absent) {
  const Map* meta = RMap(m, "metadata");
  const Map* annotations =
      meta != nullptr ? RMap(*meta, "annotations") : nullptr;
  const Value* v = annotations != nullptr ? annotations->Find(key) : nullptr;
  if (v == nullptr || !v->IsString()) {
    if (absent != nullptr) {
      EnsureMap(EnsureMap(m, "metadata"), "annotations").Set(key, S(absent));
    }
    return;
  }
  char* end = nullptr;
  long long n = std::strtoll(v->AsString().c_str(), &end, 10);
  if (v->AsString().empty() || *end != '\0') return;
  std::string canonical = std::to_string(n);
  if (canonical != v->AsString()) {
    EnsureMap(EnsureMap(m, "metadata"), "annotations")
        .Set(key, Value(canonical));
  }
}

// A Secret's stringData joins data (base64), and is gone.
std::string Base64(absl::string_view in) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n =
        (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(n >> s) & 63];
  }
  if (i < in.size()) {
    uint32_t n = uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) n |= uint8_t(in[i + 1]) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

void SecretStringData(Map& m, const GoStruct&) {
  const Value* sd = m.Find("stringData");
  if (sd == nullptr) return;
  Value string_data = *sd;
  m.Erase("stringData");
  if (!string_data.IsMap() || string_data.map().empty()) return;
  Map& data = EnsureMap(m, "data");
  for (const MapEntry& e : string_data.map()) {
    data.Set(e.key,
             Value(Base64(e.value.IsString() ? e.value.AsString() : "")));
  }
}

// Internal NodeSpec has podCIDRs only; podCIDR, authoritative when it
// differs, becomes their first, and comes back from it.
void NodeSpecPodCidrs(Map& m, const GoStruct&) {
  const std::string cidr = Str(m, "podCIDR");
  const Value* cidrs = m.Find("podCIDRs");
  bool has_list = cidrs != nullptr && cidrs->IsList() && !cidrs->list().empty();
  if (!cidr.empty() && (!has_list || !cidrs->list()[0].IsString() ||
                        cidrs->list()[0].AsString() != cidr)) {
    List l;
    l.push_back(Value(cidr));
    m.Set("podCIDRs", Value(std::move(l)));
    return;
  }
  if (has_list && cidr.empty() && cidrs->list()[0].IsString()) {
    m.Set("podCIDR", cidrs->list()[0]);
  }
}

// ---- apps/v1 ---------------------------------------------------------------

void Deployment(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  SetIfNil(spec, "replicas", I(1));
  Map& strategy = EnsureMap(spec, "strategy");
  SetIfZero(strategy, "type", S("RollingUpdate"));
  if (Str(strategy, "type") == "RollingUpdate") {
    Map& ru = EnsureMap(strategy, "rollingUpdate");
    SetIfNil(ru, "maxUnavailable", S("25%"));
    SetIfNil(ru, "maxSurge", S("25%"));
  }
  SetIfNil(spec, "revisionHistoryLimit", I(10));
  SetIfNil(spec, "progressDeadlineSeconds", I(600));
  // Conversion: the internal rolling update holds values, not pointers.
  if (Map* ru = MapAt(strategy, "rollingUpdate")) {
    SetIfNil(*ru, "maxUnavailable", I(0));
    SetIfNil(*ru, "maxSurge", I(0));
  }
  // Conversion: the rollback annotation is an integer field inside.
  IntAnnotation(m, "deprecated.deployment.rollback.to",
                nullptr);  // last: moves `spec`
}

// Not a defaulter but the conversion every v1 DaemonSet goes through
// (apps/v1 conversion.go): the internal object's template generation
// becomes this annotation, "0" on a body that does not carry one.
void DaemonSetTemplateGeneration(Map& m) {
  Map& annotations = EnsureMap(EnsureMap(m, "metadata"), "annotations");
  const char* key = "deprecated.daemonset.template.generation";
  const Value* v = annotations.Find(key);
  if (v == nullptr || !v->IsString()) {
    annotations.Set(key, S("0"));
    return;
  }
  char* end = nullptr;
  long long n = std::strtoll(v->AsString().c_str(), &end, 10);
  if (!v->AsString().empty() && *end == '\0') {
    annotations.Set(key, Value(std::to_string(n)));
  }
}

void DaemonSet(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  Map& strategy = EnsureMap(spec, "updateStrategy");
  SetIfZero(strategy, "type", S("RollingUpdate"));
  if (Str(strategy, "type") == "RollingUpdate") {
    Map& ru = EnsureMap(strategy, "rollingUpdate");
    SetIfNil(ru, "maxUnavailable", I(1));
    SetIfNil(ru, "maxSurge", I(0));
  }
  // Conversion: the internal rolling update holds values, not pointers.
  if (Map* ru = MapAt(strategy, "rollingUpdate")) {
    SetIfNil(*ru, "maxUnavailable", I(0));
    SetIfNil(*ru, "maxSurge", I(0));
  }
  SetIfNil(spec, "revisionHistoryLimit", I(10));
  DaemonSetTemplateGeneration(m);  // after the last use of `spec`
}

void StatefulSet(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  SetIfZero(spec, "podManagementPolicy", S("OrderedReady"));
  Map& strategy = EnsureMap(spec, "updateStrategy");
  if (Zero(strategy, "type")) {
    strategy.Set("type", S("RollingUpdate"));
    if (Nil(strategy, "rollingUpdate")) {
      strategy.Set("rollingUpdate", Value::MakeMap());
    }
  }
  if (Str(strategy, "type") == "RollingUpdate") {
    if (Map* ru = MapAt(strategy, "rollingUpdate")) {
      SetIfNil(*ru, "partition", I(0));
      SetIfNil(*ru, "maxUnavailable", I(1));  // MaxUnavailableStatefulSet
    }
  }
  // Conversion: the internal partition is a value; volume claim templates
  // come back with apiVersion and kind (conversion.go, issue 87583).
  if (Map* ru = MapAt(strategy, "rollingUpdate"))
    SetIfNil(*ru, "partition", I(0));
  ForEachItem(
      spec, "volumeClaimTemplates",
      [](const Map& t) {
        return Str(t, "apiVersion") != "v1" ||
               Str(t, "kind") != "PersistentVolumeClaim";
      },
      [](Map& t) {
        t.Set("apiVersion", S("v1"));
        t.Set("kind", S("PersistentVolumeClaim"));
      });
  Map& retention = EnsureMap(spec, "persistentVolumeClaimRetentionPolicy");
  SetIfZero(retention, "whenDeleted", S("Retain"));
  SetIfZero(retention, "whenScaled", S("Retain"));
  SetIfNil(spec, "replicas", I(1));
  SetIfNil(spec, "revisionHistoryLimit", I(10));
}

void ReplicaSet(Map& m, const GoStruct&) {
  SetIfNil(EnsureMap(m, "spec"), "replicas", I(1));
}

// ---- batch/v1
// ----------------------------------------------------------------

void Job(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  if (Nil(spec, "completions") && Nil(spec, "parallelism")) {
    spec.Set("completions", I(1));
    spec.Set("parallelism", I(1));
  }
  SetIfNil(spec, "parallelism", I(1));
  if (Nil(spec, "backoffLimit")) {
    spec.Set("backoffLimit",
             I(Nil(spec, "backoffLimitPerIndex") ? 6 : 2147483647));
  }
  SetIfNil(spec, "completionMode", S("NonIndexed"));
  SetIfNil(spec, "suspend", Value(false));
  if (Nil(spec, "podReplacementPolicy")) {
    spec.Set(
        "podReplacementPolicy",
        S(Nil(spec, "podFailurePolicy") ? "TerminatingOrFailed" : "Failed"));
  }
  SetIfNil(spec, "manualSelector", Value(false));
  // The Job's labels default to its template's. (Last: making metadata may
  // move `spec`.)
  Value labels;
  if (Map* tmpl = MapAt(spec, "template")) {
    if (Map* tmeta = MapAt(*tmpl, "metadata")) {
      if (const Value* l = Get(*tmeta, "labels")) labels = *l;
    }
  }
  if (labels.IsMap() && !labels.map().empty()) {
    Map& meta = EnsureMap(m, "metadata");
    if (Zero(meta, "labels")) meta.Set("labels", std::move(labels));
  }
}

void CronJob(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  SetIfZero(spec, "concurrencyPolicy", S("Allow"));
  SetIfNil(spec, "suspend", Value(false));
  SetIfNil(spec, "successfulJobsHistoryLimit", I(3));
  SetIfNil(spec, "failedJobsHistoryLimit", I(1));
}

// ---- networking/v1
// -----------------------------------------------------------

void NetworkPolicy(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  if (!Zero(spec, "policyTypes")) return;
  List types;
  types.push_back(S("Ingress"));
  const Value* egress = Get(spec, "egress");
  if (egress != nullptr && egress->IsList() && !egress->list().empty()) {
    types.push_back(S("Egress"));
  }
  spec.Set("policyTypes", Value(std::move(types)));
}

void IngressClass(Map& m, const GoStruct&) {
  if (Map* spec = MapAt(m, "spec")) {
    if (Map* params = MapAt(*spec, "parameters")) {
      SetIfNil(*params, "scope", S("Cluster"));
    }
  }
}

// ---- autoscaling
// -------------------------------------------------------------

Value ScalingPolicy(const char* type, int64_t value, int64_t period) {
  Map p;
  p.Set("type", S(type));
  p.Set("value", I(value));
  p.Set("periodSeconds", I(period));
  return Value(std::move(p));
}

// copyHPAScalingRules over the rules the controller used before behaviors.
Value ScalingRules(const Value* from, bool up) {
  Map to;
  if (up) to.Set("stabilizationWindowSeconds", I(0));
  to.Set("selectPolicy", S("Max"));
  List policies;
  if (up) policies.push_back(ScalingPolicy("Pods", 4, 15));
  policies.push_back(ScalingPolicy("Percent", 100, 15));
  to.Set("policies", Value(std::move(policies)));
  if (from != nullptr && from->IsMap()) {
    for (const char* f : {"selectPolicy", "stabilizationWindowSeconds",
                          "policies", "tolerance"}) {
      if (const Value* v = from->map().Find(f); v != nullptr && !v->IsNull()) {
        to.Set(f, *v);
      }
    }
  }
  return Value(std::move(to));
}

// The autoscaling/v1 conversion (pkg/apis/autoscaling/v1/conversion.go):
// a v1 HorizontalPodAutoscaler is stored as the internal (v2) one and read
// back through it, what v1 cannot say kept in round-trip annotations.
namespace hpa_v1 {

constexpr const char* kMetrics = kHpaMetricsAnnotation;
constexpr const char* kCurrentMetrics = kHpaCurrentMetricsAnnotation;
constexpr const char* kConditions = kHpaConditionsAnnotation;
constexpr const char* kBehavior = kHpaBehaviorAnnotation;

const Value* Annotation(const Map* annotations, const char* key) {
  const Value* v = annotations != nullptr ? annotations->Find(key) : nullptr;
  return v != nullptr && v->IsString() ? v : nullptr;
}

// The behavior annotation, when it decodes into the internal
// HorizontalPodAutoscalerBehavior (untagged: its fields ScaleUp and
// ScaleDown, matched without case) and is not empty.
std::optional<Value> Behavior(const Map* annotations) {
  const Value* enc = Annotation(annotations, kBehavior);
  if (enc == nullptr) return std::nullopt;
  absl::StatusOr<Value> v = ParseJson(enc->AsString());
  if (!v.ok() || !v->IsMap()) return std::nullopt;
  bool set = false;
  for (const MapEntry& e : v->map()) {
    const std::string k = absl::AsciiStrToLower(e.key);
    if (k != "scaleup" && k != "scaledown") continue;
    if (!e.value.IsNull() && !e.value.IsMap()) return std::nullopt;
    set = set || e.value.IsMap();
  }
  if (!set) return std::nullopt;
  return *std::move(v);
}

// A v1 MetricSpec of a CPU utilization target, and that target.
const Value* CpuUtilizationTarget(const Value& metric) {
  if (StringAt(metric, "type") != "Resource") return nullptr;
  const Value* r = Find(metric, "resource");
  if (r == nullptr || StringAt(*r, "name") != "cpu") return nullptr;
  const Value* u = Find(*r, "targetAverageUtilization");
  return u != nullptr && !u->IsNull() ? u : nullptr;
}

// A v1 MetricStatus through the internal one: a resource's average value,
// a quantity that is not a pointer in v1, is "0" where it was left out.
Value CurrentMetric(Value metric) {
  if (StringAt(metric, "type") == "Resource" && metric.IsMap()) {
    if (Value* r = metric.map().Find("resource"); r != nullptr && r->IsMap()) {
      if (Nil(r->map(), "currentAverageValue"))
        r->map().Set("currentAverageValue", S("0"));
    }
  }
  return metric;
}

// Whether a pointer field set to `have` (null: nil) is to become `want`
// (null: nil).
bool Differs(const Value* have, const Value& want) {
  return want.IsNull() ? have != nullptr
                       : have == nullptr || !Equals(*have, want);
}

// `m[f]` is `v`, or absent for null.
void SetOrErase(Map& m, const char* f, const Value& v) {
  if (v.IsNull()) {
    m.Erase(f);
  } else {
    m.Set(f, v);
  }
}

}  // namespace hpa_v1

void HorizontalPodAutoscalerV1(Map& m, const GoStruct&) {
  using namespace hpa_v1;  // NOLINT(build/namespaces)
  const Map* meta = RMap(m, "metadata");
  const Map* annotations = meta != nullptr ? RMap(*meta, "annotations")
                                           : nullptr;
  // v1 to internal: what the annotations add.
  const std::optional<List> metrics = HpaAnnotationList(annotations, kMetrics);
  const std::optional<List> current = HpaAnnotationList(annotations, kCurrentMetrics);
  const std::optional<List> conditions = HpaAnnotationList(annotations, kConditions);
  const std::optional<Value> behavior = Behavior(annotations);
  const Map* spec = RMap(m, "spec");
  const Value* target =
      spec != nullptr && !Nil(*spec, "targetCPUUtilizationPercentage")
          ? spec->Find("targetCPUUtilizationPercentage")
          : nullptr;
  // The internal metrics are the annotation's, then the CPU target; none
  // at all is 80% of CPU. Back in v1, the first CPU utilization target is
  // the target, the other metrics the annotation.
  Value new_target;
  List others;
  if (metrics.has_value()) {
    for (const Value& metric : *metrics) {
      const Value* u = CpuUtilizationTarget(metric);
      if (u == nullptr) {
        others.push_back(metric);
      } else if (new_target.IsNull()) {
        new_target = *u;
      }
    }
  }
  if (new_target.IsNull() && target != nullptr) new_target = *target;
  if (new_target.IsNull() && target == nullptr &&
      (!metrics.has_value() || metrics->empty())) {
    new_target = I(80);
  }
  // The status: the current metrics are the annotation's where it has
  // them ("the ones here have more information"), else the CPU
  // utilization; back in v1, the last CPU utilization is that field, and
  // all of them the annotation.
  const Map* status = RMap(m, "status");
  List now;
  if (current.has_value()) {
    for (const Value& metric : *current) now.push_back(CurrentMetric(metric));
  } else if (status != nullptr &&
             !Nil(*status, "currentCPUUtilizationPercentage")) {
    Map resource;
    resource.Set("name", S("cpu"));
    resource.Set("currentAverageUtilization",
                 *status->Find("currentCPUUtilizationPercentage"));
    resource.Set("currentAverageValue", S("0"));
    Map metric;
    metric.Set("type", S("Resource"));
    metric.Set("resource", Value(std::move(resource)));
    now.push_back(Value(std::move(metric)));
  }
  Value new_cpu;
  for (const Value& metric : now) {
    if (StringAt(metric, "type") != "Resource") continue;
    const Value* r = Find(metric, "resource");
    if (r == nullptr || StringAt(*r, "name") != "cpu") continue;
    const Value* u = Find(*r, "currentAverageUtilization");
    if (u != nullptr && !u->IsNull()) new_cpu = *u;
  }
  // The annotations v1 gets back.
  Map out;
  if (annotations != nullptr) {
    for (const MapEntry& e : *annotations) {
      if (!IsHpaRoundTripAnnotation(e.key)) out.Append(e.key, e.value);
    }
  }
  if (!others.empty()) out.Set(kMetrics, Value(ToJson(Value(others))));
  if (!now.empty()) out.Set(kCurrentMetrics, Value(ToJson(Value(now))));
  if (behavior.has_value()) out.Set(kBehavior, Value(ToJson(*behavior)));
  if (conditions.has_value() && !conditions->empty())
    out.Set(kConditions, Value(ToJson(Value(*conditions))));
  // Written only where they change (a write unshares), after every read
  // (a write may move what the pointers above point to).
  const Value* old_annotations =
      meta != nullptr ? meta->Find("annotations") : nullptr;
  const Value out_annotations(std::move(out));
  const bool drop_annotations = out_annotations.map().empty() &&
                                old_annotations != nullptr &&
                                old_annotations->IsMap() &&
                                !old_annotations->map().empty();
  const bool set_annotations =
      !out_annotations.map().empty() &&
      (old_annotations == nullptr ||
       !Equals(*old_annotations, out_annotations));
  const Value* cpu =
      status != nullptr && !Nil(*status, "currentCPUUtilizationPercentage")
          ? status->Find("currentCPUUtilizationPercentage")
          : nullptr;
  const bool target_differs = Differs(target, new_target);
  const bool cpu_differs = Differs(cpu, new_cpu);
  const bool min_replicas = spec == nullptr || Nil(*spec, "minReplicas");
  if (drop_annotations) EnsureMap(m, "metadata").Erase("annotations");
  if (set_annotations)
    EnsureMap(m, "metadata").Set("annotations", out_annotations);
  if (target_differs)
    SetOrErase(EnsureMap(m, "spec"), "targetCPUUtilizationPercentage",
               new_target);
  if (cpu_differs)
    SetOrErase(EnsureMap(m, "status"), "currentCPUUtilizationPercentage",
               new_cpu);
  if (min_replicas) EnsureMap(m, "spec").Set("minReplicas", I(1));
}

void HorizontalPodAutoscalerV2(Map& m, const GoStruct&) {
  // The conversion to the internal version drops the round-trip
  // annotations of v1 (Convert_v2_HorizontalPodAutoscaler_To_autoscaling_
  // HorizontalPodAutoscaler): v2 says all they would.
  // (Read first: a write unshares.)
  const Map* meta = RMap(m, "metadata");
  const Map* annotations = meta != nullptr ? RMap(*meta, "annotations")
                                           : nullptr;
  std::vector<std::string> drop;
  if (annotations != nullptr) {
    for (const MapEntry& e : *annotations) {
      if (IsHpaRoundTripAnnotation(e.key)) drop.push_back(e.key);
    }
  }
  if (!drop.empty()) {
    Map& a = *MapAt(*MapAt(m, "metadata"), "annotations");
    for (const std::string& k : drop) a.Erase(k);
  }
  Map& spec = EnsureMap(m, "spec");
  SetIfNil(spec, "minReplicas", I(1));
  if (Zero(spec, "metrics")) {
    Map target;
    target.Set("type", S("Utilization"));
    target.Set("averageUtilization", I(80));
    Map resource;
    resource.Set("name", S("cpu"));
    resource.Set("target", Value(std::move(target)));
    Map metric;
    metric.Set("type", S("Resource"));
    metric.Set("resource", Value(std::move(resource)));
    List metrics;
    metrics.push_back(Value(std::move(metric)));
    spec.Set("metrics", Value(std::move(metrics)));
  }
  if (Map* behavior = MapAt(spec, "behavior")) {
    Value up = ScalingRules(Get(*behavior, "scaleUp"), /*up=*/true);
    Value down = ScalingRules(Get(*behavior, "scaleDown"), /*up=*/false);
    behavior->Set("scaleUp", std::move(up));
    behavior->Set("scaleDown", std::move(down));
  }
}

// ---- rbac/v1
// -----------------------------------------------------------------

void RoleBinding(Map& m, const GoStruct&) {
  SetIfZero(EnsureMap(m, "roleRef"), "apiGroup",
            S("rbac.authorization.k8s.io"));
}

void Subject(Map& m, const GoStruct&) {
  if (!Zero(m, "apiGroup")) return;
  const std::string kind = Str(m, "kind");
  if (kind == "User" || kind == "Group") {
    m.Set("apiGroup", S("rbac.authorization.k8s.io"));
  }
}

// ---- apiextensions.k8s.io/v1 (apiextensions-apiserver)
// ------------------------------------------------

// SetDefaults_CustomResourceDefinition: the spec's (singular name and list
// kind from the kind, the None conversion), and the stored versions from
// the first storage version when there are none.
void CustomResourceDefinition(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  Map& names = EnsureMap(spec, "names");
  const std::string kind = Str(names, "kind");
  if (Zero(names, "singular")) {
    // strings.ToLower; kinds are ASCII in every valid CRD.
    names.Set("singular", Value(absl::AsciiStrToLower(kind)));
  }
  if (Zero(names, "listKind") && !kind.empty()) {
    names.Set("listKind", Value(kind + "List"));
  }
  if (Nil(spec, "conversion")) {
    Map conversion;
    conversion.Set("strategy", S("None"));
    spec.Set("conversion", Value(std::move(conversion)));
  }
  Map& status = EnsureMap(m, "status");
  if (!Zero(status, "storedVersions")) return;
  const Value* versions = Get(spec, "versions");
  if (versions == nullptr || !versions->IsList()) return;
  for (const Value& v : versions->list()) {
    const Value* storage = Find(v, "storage");
    if (storage != nullptr && storage->IsBool() && storage->AsBool()) {
      List stored;
      stored.push_back(Value(StringAt(v, "name")));
      status.Set("storedVersions", Value(std::move(stored)));
      return;
    }
  }
}

// ---- storage/v1
// ----------------------------------------------------------------

void CSIDriver(Map& m, const GoStruct&) {
  Map& spec = EnsureMap(m, "spec");
  SetIfNil(spec, "attachRequired", Value(true));
  SetIfNil(spec, "podInfoOnMount", Value(false));
  SetIfNil(spec, "storageCapacity", Value(false));
  SetIfNil(spec, "fsGroupPolicy", S("ReadWriteOnceWithFSType"));
  if (Zero(spec, "volumeLifecycleModes")) {
    List modes;
    modes.push_back(S("Persistent"));
    spec.Set("volumeLifecycleModes", Value(std::move(modes)));
  }
  SetIfNil(spec, "requiresRepublish", Value(false));
  SetIfNil(spec, "seLinuxMount", Value(false));  // SELinuxMountReadWriteOncePod
  SetIfNil(spec, "preventPodSchedulingIfMissing",
           Value(false));  // VolumeLimitScaling
}

// ---- admissionregistration/v1
// -------------------------------------------------

void Webhook(Map& m, bool mutating) {
  SetIfNil(m, "failurePolicy", S("Fail"));
  SetIfNil(m, "matchPolicy", S("Equivalent"));
  SetIfNil(m, "namespaceSelector", Value::MakeMap());
  SetIfNil(m, "objectSelector", Value::MakeMap());
  SetIfNil(m, "timeoutSeconds", I(10));
  if (mutating) SetIfNil(m, "reinvocationPolicy", S("Never"));
}
void ValidatingWebhook(Map& m, const GoStruct&) { Webhook(m, false); }
void MutatingWebhook(Map& m, const GoStruct&) { Webhook(m, true); }

void MatchResources(Map& m, const GoStruct&) {
  SetIfNil(m, "matchPolicy", S("Equivalent"));
  SetIfNil(m, "namespaceSelector", Value::MakeMap());
  SetIfNil(m, "objectSelector", Value::MakeMap());
}

// ---- resource/v1
// ---------------------------------------------------------------

void DeviceRequestCount(Map& m, const GoStruct&) {
  SetIfZero(m, "allocationMode", S("ExactCount"));
  if (Str(m, "allocationMode") == "ExactCount") SetIfZero(m, "count", I(1));
}

}  // namespace

absl::Span<const ClockDefault> ClockDefaults() {
  // resource/v1 defaults.go.
  static const ClockDefault kDefaults[] = {
      {"io.k8s.api.resource.v1.DeviceTaint", "timeAdded"},
  };
  return kDefaults;
}

absl::Span<const FieldDefault> FieldDefaults() {
  // Unconditional defaults: set when the field is unset in Go's sense.
  static const FieldDefault kDefaults[] = {
      // core/v1 defaults.go
      {"io.k8s.api.core.v1.Probe", "timeoutSeconds", "1"},
      {"io.k8s.api.core.v1.Probe", "periodSeconds", "10"},
      {"io.k8s.api.core.v1.Probe", "successThreshold", "1"},
      {"io.k8s.api.core.v1.Probe", "failureThreshold", "3"},
      {"io.k8s.api.core.v1.SecretVolumeSource", "defaultMode", "420"},
      {"io.k8s.api.core.v1.ConfigMapVolumeSource", "defaultMode", "420"},
      {"io.k8s.api.core.v1.DownwardAPIVolumeSource", "defaultMode", "420"},
      {"io.k8s.api.core.v1.ProjectedVolumeSource", "defaultMode", "420"},
      {"io.k8s.api.core.v1.ServiceAccountTokenProjection", "expirationSeconds",
       "3600"},
      {"io.k8s.api.core.v1.Secret", "type", "\"Opaque\""},
      {"io.k8s.api.core.v1.PersistentVolumeClaimSpec", "volumeMode",
       "\"Filesystem\""},
      {"io.k8s.api.core.v1.EndpointPort", "protocol", "\"TCP\""},
      {"io.k8s.api.core.v1.HTTPGetAction", "path", "\"/\""},
      {"io.k8s.api.core.v1.HTTPGetAction", "scheme", "\"HTTP\""},
      {"io.k8s.api.core.v1.NamespaceStatus", "phase", "\"Active\""},
      {"io.k8s.api.core.v1.ObjectFieldSelector", "apiVersion", "\"v1\""},
      {"io.k8s.api.core.v1.HostPathVolumeSource", "type", "\"\""},
      {"io.k8s.api.core.v1.GRPCAction", "service", "\"\""},
      {"io.k8s.api.core.v1.FileKeySelector", "optional", "false"},
      // core/v1 +default markers (k8s.io/api/core/v1/types.go)
      {"io.k8s.api.core.v1.ContainerPort", "protocol", "\"TCP\""},
      {"io.k8s.api.core.v1.ServicePort", "protocol", "\"TCP\""},
      {"io.k8s.api.core.v1.ReplicationControllerSpec", "replicas", "1"},
      {"io.k8s.api.core.v1.AzureDiskVolumeSource", "cachingMode",
       "\"ReadWrite\""},
      {"io.k8s.api.core.v1.AzureDiskVolumeSource", "fsType", "\"ext4\""},
      {"io.k8s.api.core.v1.AzureDiskVolumeSource", "kind", "\"Shared\""},
      {"io.k8s.api.core.v1.AzureDiskVolumeSource", "readOnly", "false"},
      {"io.k8s.api.core.v1.RBDVolumeSource", "pool", "\"rbd\""},
      {"io.k8s.api.core.v1.RBDVolumeSource", "user", "\"admin\""},
      {"io.k8s.api.core.v1.RBDVolumeSource", "keyring",
       "\"/etc/ceph/keyring\""},
      {"io.k8s.api.core.v1.RBDPersistentVolumeSource", "pool", "\"rbd\""},
      {"io.k8s.api.core.v1.RBDPersistentVolumeSource", "user", "\"admin\""},
      {"io.k8s.api.core.v1.RBDPersistentVolumeSource", "keyring",
       "\"/etc/ceph/keyring\""},
      {"io.k8s.api.core.v1.ISCSIVolumeSource", "iscsiInterface", "\"default\""},
      {"io.k8s.api.core.v1.ISCSIPersistentVolumeSource", "iscsiInterface",
       "\"default\""},
      {"io.k8s.api.core.v1.ScaleIOVolumeSource", "fsType", "\"xfs\""},
      {"io.k8s.api.core.v1.ScaleIOVolumeSource", "storageMode",
       "\"ThinProvisioned\""},
      {"io.k8s.api.core.v1.ScaleIOPersistentVolumeSource", "fsType", "\"xfs\""},
      {"io.k8s.api.core.v1.ScaleIOPersistentVolumeSource", "storageMode",
       "\"ThinProvisioned\""},
      // batch/v1
      {"io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern", "status",
       "\"True\""},
      // networking/v1
      {"io.k8s.api.networking.v1.NetworkPolicyPort", "protocol", "\"TCP\""},
      // storage/v1
      {"io.k8s.api.storage.v1.StorageClass", "reclaimPolicy", "\"Delete\""},
      {"io.k8s.api.storage.v1.StorageClass", "volumeBindingMode",
       "\"Immediate\""},
      // discovery/v1
      {"io.k8s.api.discovery.v1.EndpointPort", "name", "\"\""},
      {"io.k8s.api.discovery.v1.EndpointPort", "protocol", "\"TCP\""},
      // scheduling/v1
      {"io.k8s.api.scheduling.v1.PriorityClass", "preemptionPolicy",
       "\"PreemptLowerPriority\""},
      // admissionregistration/v1
      {"io.k8s.api.admissionregistration.v1.Rule", "scope", "\"*\""},
      {"io.k8s.api.admissionregistration.v1.RuleWithOperations", "scope",
       "\"*\""},
      {"io.k8s.api.admissionregistration.v1.NamedRuleWithOperations", "scope",
       "\"*\""},
      {"io.k8s.api.admissionregistration.v1.ServiceReference", "port", "443"},
      {"io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
       "failurePolicy", "\"Fail\""},
      {"io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec",
       "failurePolicy", "\"Fail\""},
      // flowcontrol/v1
      {"io.k8s.api.flowcontrol.v1.FlowSchemaSpec", "matchingPrecedence",
       "1000"},
      {"io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
       "nominalConcurrencyShares", "0"},
      {"io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
       "lendablePercent", "0"},
      {"io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
       "nominalConcurrencyShares", "30"},
      {"io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
       "lendablePercent", "0"},
      {"io.k8s.api.flowcontrol.v1.QueuingConfiguration", "handSize", "8"},
      {"io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queues", "64"},
      {"io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queueLengthLimit",
       "50"},
      // resource/v1
      {"io.k8s.api.resource.v1.DeviceToleration", "operator", "\"Equal\""},
      // certificates/v1
      {"io.k8s.api.certificates.v1.PodCertificateRequestSpec",
       "maxExpirationSeconds", "86400"},
      // apiextensions.k8s.io/v1 (its webhook conversion's service)
      {"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."
       "ServiceReference",
       "port", "443"},
      // apiregistration.k8s.io/v1 (kube-aggregator: an APIService's service)
      {"io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference",
       "port", "443"},
  };
  return kDefaults;
}

absl::Span<const DefaultRule> DefaultRules() {
  static const DefaultRule kRules[] = {
      {"io.k8s.api.core.v1.Container", Container},
      {"io.k8s.api.core.v1.EphemeralContainer", Container},
      {"io.k8s.api.core.v1.Volume", Volume},
      {"io.k8s.api.core.v1.Service", Service},
      {"io.k8s.api.core.v1.Pod", Pod},
      {"io.k8s.api.core.v1.PodStatus", PodStatus},
      {"io.k8s.api.core.v1.PodSpec", PodSpec},
      {"io.k8s.api.core.v1.Namespace", Namespace},
      {"io.k8s.api.core.v1.PersistentVolume", PersistentVolume},
      {"io.k8s.api.core.v1.PersistentVolumeClaim", PersistentVolumeClaim},
      {"io.k8s.api.core.v1.NodeStatus", NodeStatus},
      {"io.k8s.api.core.v1.LimitRangeItem", LimitRangeItem},
      {"io.k8s.api.core.v1.ReplicationController", ReplicationController},
      {"io.k8s.api.core.v1.Secret", SecretStringData},
      {"io.k8s.api.core.v1.NodeSpec", NodeSpecPodCidrs},
      {"io.k8s.api.apps.v1.Deployment", Deployment},
      {"io.k8s.api.apps.v1.DaemonSet", DaemonSet},
      {"io.k8s.api.apps.v1.StatefulSet", StatefulSet},
      {"io.k8s.api.apps.v1.ReplicaSet", ReplicaSet},
      {"io.k8s.api.batch.v1.Job", Job},
      {"io.k8s.api.batch.v1.CronJob", CronJob},
      {"io.k8s.api.networking.v1.NetworkPolicy", NetworkPolicy},
      {"io.k8s.api.networking.v1.IngressClass", IngressClass},
      {"io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
       HorizontalPodAutoscalerV1},
      {"io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
       HorizontalPodAutoscalerV2},
      {"io.k8s.api.rbac.v1.RoleBinding", RoleBinding},
      {"io.k8s.api.rbac.v1.ClusterRoleBinding", RoleBinding},
      {"io.k8s.api.rbac.v1.Subject", Subject},
      {"io.k8s.api.storage.v1.CSIDriver", CSIDriver},
      {"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."
       "CustomResourceDefinition",
       CustomResourceDefinition},
      {"io.k8s.api.admissionregistration.v1.ValidatingWebhook",
       ValidatingWebhook},
      {"io.k8s.api.admissionregistration.v1.MutatingWebhook", MutatingWebhook},
      {"io.k8s.api.admissionregistration.v1.MatchResources", MatchResources},
      {"io.k8s.api.resource.v1.ExactDeviceRequest", DeviceRequestCount},
      {"io.k8s.api.resource.v1.DeviceSubRequest", DeviceRequestCount},
  };
  return kRules;
}

}  // namespace smdx::internal
