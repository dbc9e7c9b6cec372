// smdx._smdx: the Python module's native part, on the C++ API
// (smdx/embed/catalog.h and the field manager). python/smdx/__init__.py is the
// package users import; python/smdx/_smdx.pyi documents every name.
//
// Objects cross as Python values (dict, list, str, int, float, bool, None),
// as JSON/YAML text, or as smdx.Object: an object held in C++, which
// crosses with no conversion at all. Conversion holds the GIL; parsing, the
// merge and writing text run without it (for FieldManager calls, in one
// release), so threads that share a FieldManager run in parallel. Failures
// raise the exceptions of smdx/_errors.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "python/gil.h"
#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/kubectl_apply.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/same_bytes.h"

namespace py = pybind11;

namespace smdx::python {
namespace {

// ---- Errors ----------------------------------------------------------------

[[noreturn]] void Raise(py::object instance) {
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(instance.ptr())),
                  instance.ptr());
  throw py::error_already_set();
}

py::object ErrorClass(const char* name) {
  return py::module_::import("smdx._errors").attr(name);
}

[[noreturn]] void RaiseMessage(const char* cls, const std::string& message) {
  Raise(ErrorClass(cls)(message));
}

// A failed status: limits are LimitError, unknown kinds and types
// KindNotFoundError, the rest `cls`.
[[noreturn]] void RaiseStatus(const absl::Status& st, const char* cls) {
  const char* c = cls;
  if (st.code() == absl::StatusCode::kResourceExhausted) c = "LimitError";
  if (st.code() == absl::StatusCode::kNotFound) c = "KindNotFoundError";
  RaiseMessage(c, std::string(st.message()));
}

[[noreturn]] void RaiseOutcome(const FieldManagerResult& r) {
  std::string message(r.status.message());
  switch (r.kind) {
    case ErrorKind::kConflict: {
      py::object conflict = ErrorClass("Conflict");
      py::list conflicts;
      for (const smdx::Conflict& c : r.conflicts.list()) {
        absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(c.manager);
        conflicts.append(conflict(DisplayManager(c.manager),
                                  id.ok() ? id->manager : c.manager,
                                  PathString(c.path)));
      }
      Raise(ErrorClass("ConflictError")(FailureMessage(r),
                                        conflicts));
    }
    case ErrorKind::kImmutable: {
      py::list paths;
      for (const Path& p : r.error_paths) paths.append(PathString(p));
      Raise(ErrorClass("ImmutableError")(message, paths));
    }
    case ErrorKind::kInvalid:
      RaiseMessage("InvalidError", message);
    case ErrorKind::kBadRequest:
      RaiseMessage("BadRequestError", message);
    default:
      RaiseMessage("Error", message);
  }
}

// ---- Python values <-> Values ----------------------------------------------

// Python values to Values. The path to the current node is a chain of
// borrowed keys and indexes on the stack, spelled out only for an error
// message.
class FromPython {
 public:
  explicit FromPython(size_t max_depth) : max_depth_(max_depth) {}

  Value Convert(PyObject* o) {
    Value v;
    Convert(o, nullptr, 0, &v);
    return v;
  }

 private:
  // One step of the path: a map key (borrowed), or a list index when
  // `key` is null; `up` is the step before it.
  struct Step {
    const Step* up;
    PyObject* key;
    Py_ssize_t index;
  };

  // Converts `o` into `*out`, a null Value, in place: each node is made
  // where it stays, with no Value to move from.
  void Convert(PyObject* o, const Step* at, size_t depth, Value* out) {
    if (depth >= max_depth_) {
      RaiseMessage("LimitError",
                   absl::StrCat(PathAt(at), ": nested deeper than ", max_depth_,
                                " levels (the max_depth limit)"));
    }
    if (o == Py_None) return;
    if (PyBool_Check(o)) return out->SetBool(o == Py_True);
    if (PyLong_Check(o)) {
      int overflow = 0;
      long long i = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow != 0) {
        RaiseMessage(
            "InvalidError",
            absl::StrCat(PathAt(at), ": integer out of the 64-bit range"));
      }
      return out->SetInt(static_cast<int64_t>(i));
    }
    if (PyUnicode_Check(o)) return out->SetString(Utf8(o));
    if (PyDict_Check(o)) {
      // Empty dicts (every leaf of a fieldsV1) share one node, made once
      // per conversion: values are copy-on-write, so a writer unshares it.
      if (PyDict_GET_SIZE(o) == 0) {
        *out = empty_map_.Get();
        return;
      }
      Map::Entries& entries = out->SetMap().entries();
      entries.reserve(static_cast<size_t>(PyDict_GET_SIZE(o)));
      PyObject* key;
      PyObject* item;
      Py_ssize_t pos = 0;
      while (PyDict_Next(o, &pos, &key, &item)) {
        if (!PyUnicode_Check(key)) {
          throw py::type_error(absl::StrCat(PathAt(at),
                                            ": map keys must be strings, got ",
                                            Py_TYPE(key)->tp_name));
        }
        const Step step{at, key, 0};
        const absl::string_view k = Utf8(key);
        MapEntry& e = entries.emplace_back();
        internal::SetBytes(&e.key, k.data(), k.size());
        Convert(item, &step, depth + 1, &e.value);
      }
      return;
    }
    const bool list = PyList_Check(o);
    if (list || PyTuple_Check(o)) {
      const Py_ssize_t n = list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
      // All the items at once: each is then converted where it stays.
      List& l = out->SetList();
      l.resize(static_cast<size_t>(n));
      for (Py_ssize_t i = 0; i < n; ++i) {
        const Step step{at, nullptr, i};
        Convert(list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i), &step,
                depth + 1, &l[static_cast<size_t>(i)]);
      }
      return;
    }
    // Last: the only check here that is not a flag test (the kinds are
    // disjoint, so the order decides nothing else).
    if (PyFloat_Check(o)) {
      double d = PyFloat_AS_DOUBLE(o);
      if (!std::isfinite(d)) {
        RaiseMessage(
            "InvalidError",
            absl::StrCat(PathAt(at), ": NaN and infinity have no JSON form"));
      }
      return out->SetFloat(d);
    }
    throw py::type_error(absl::StrCat(
        PathAt(at), ": cannot be ", Py_TYPE(o)->tp_name,
        " (objects hold dict, list, str, int, float, bool and None)"));
  }

  // The UTF-8 of a str, which the str keeps (for ASCII, its own bytes,
  // read in place: nearly every key and value is ASCII, and the call that
  // looks this up costs more than the rest of converting a short one).
  ABSL_ATTRIBUTE_ALWAYS_INLINE static absl::string_view Utf8(PyObject* s) {
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
      return absl::string_view(static_cast<const char*>(PyUnicode_DATA(s)),
                               static_cast<size_t>(PyUnicode_GET_LENGTH(s)));
    }
    Py_ssize_t n = 0;
    const char* data = PyUnicode_AsUTF8AndSize(s, &n);
    if (data == nullptr) throw py::error_already_set();
    return absl::string_view(data, static_cast<size_t>(n));
  }

  static std::string PathAt(const Step* at) {
    std::vector<const Step*> steps;
    for (const Step* s = at; s != nullptr; s = s->up) steps.push_back(s);
    std::string out;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      if ((*it)->key != nullptr) {
        absl::StrAppend(&out, ".", Utf8((*it)->key));
      } else {
        absl::StrAppend(&out, "[", (*it)->index, "]");
      }
    }
    return out.empty() ? "the object" : out;
  }

  size_t max_depth_;
  internal::SharedEmptyMap empty_map_;
};

PyObject* Check(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return o;
}

PyObject* Str(absl::string_view s) {
  return Check(
      PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size())));
}

// The strs of map keys, kept from conversion to conversion: keys repeat
// within an object (every container has a "name") and from object to
// object, and a kept str keeps its hash too, which every dict insert needs.
// Holds kMaxKeys at most; further keys get strs of their own. Used with the
// GIL held.
class KeyStrs {
 public:
  static constexpr size_t kMaxKeys = 4096;

  // The str of `k` (a new reference).
  py::object Get(absl::string_view k) {
    auto it = strs_.find(k);
    if (it != strs_.end()) return it->second;
    py::object s = py::reinterpret_steal<py::object>(Str(k));
    if (strs_.size() < kMaxKeys) strs_.emplace(std::string(k), s);
    return s;
  }

 private:
  // Keys are short: the hash for short byte strings, cheaper than absl's.
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(absl::string_view k) const {
      return internal::HashBytes(k.data(), k.size());
    }
  };
  struct KeyEq {
    using is_transparent = void;
    bool operator()(absl::string_view a, absl::string_view b) const {
      return a.size() == b.size() &&
             internal::SameBytes(a.data(), b.data(), a.size());
    }
  };
  absl::flat_hash_map<std::string, py::object, KeyHash, KeyEq> strs_;
};

// Values to Python values, map keys through `keys`.
class ToPythonConverter {
 public:
  explicit ToPythonConverter(KeyStrs* keys) : keys_(keys) {}

  py::object Convert(const Value& v) {
    return py::reinterpret_steal<py::object>(New(v));
  }

 private:
  PyObject* New(const Value& v) {
    switch (v.kind()) {
      case Value::Kind::kNull:
        Py_RETURN_NONE;
      case Value::Kind::kBool:
        if (v.AsBool()) Py_RETURN_TRUE;
        Py_RETURN_FALSE;
      case Value::Kind::kInt:
        return Check(PyLong_FromLongLong(v.AsInt()));
      case Value::Kind::kFloat:
        return Check(PyFloat_FromDouble(v.AsFloat()));
      case Value::Kind::kString:
        return Str(v.AsString());
      case Value::Kind::kList: {
        const List& items = v.list();
        py::object l = py::reinterpret_steal<py::object>(
            Check(PyList_New(static_cast<Py_ssize_t>(items.size()))));
        Py_ssize_t i = 0;
        for (const Value& item : items) {
          PyList_SET_ITEM(l.ptr(), i++, New(item));
        }
        return l.release().ptr();
      }
      case Value::Kind::kMap: {
        py::object d = py::reinterpret_steal<py::object>(Check(PyDict_New()));
        for (const MapEntry& e : v.map()) {
          py::object key = keys_->Get(e.key);
          py::object item = py::reinterpret_steal<py::object>(New(e.value));
          if (PyDict_SetItem(d.ptr(), key.ptr(), item.ptr()) != 0) {
            throw py::error_already_set();
          }
        }
        return d.release().ptr();
      }
    }
    Py_RETURN_NONE;
  }

  KeyStrs* keys_;
};

// With the keys of every such conversion kept (load_all, to_dict, fieldset
// and blame; with the GIL held). Made once and never destroyed: the strs it
// holds must not be released after the interpreter has gone.
py::object ToPython(const Value& v) {
  static KeyStrs* const keys = new KeyStrs;
  return ToPythonConverter(keys).Convert(v);
}


enum class Form { kDict, kJson, kYaml, kObject };

// smdx.Object: an object (a map) held as a Value, immutable. Its nodes are
// shared, copy-on-write, with the Values of the calls it goes into and of
// the results made from it.
struct PyValue {
  Value value;
};

// smdx.Object's type (final: no subclasses), set when the module loads: a
// look at an argument's type is then one comparison, where py::isinstance
// looks the type up in pybind11's registry each time.
PyTypeObject* object_type = nullptr;

bool IsObject(const py::handle& o) { return Py_TYPE(o.ptr()) == object_type; }

// An input object: a Python value, JSON/YAML text (str or bytes), which is
// parsed without the GIL, or an smdx.Object, taken as it is. `form` is
// what it was (for text, what the text looked like).
struct Input {
  Value value;
  Form form = Form::kDict;
  // The text, while it is not parsed yet (see TakeInput).
  std::optional<std::string> text;
};

bool IsText(const py::handle& o) {
  return PyUnicode_Check(o.ptr()) || PyBytes_Check(o.ptr());
}

// With the GIL: converts a Python value, and only copies text, which
// ParseInput reads later (the GIL released once for all the work of a
// call).
Input TakeInput(const py::handle& o, const Limits& limits, const char* what,
                bool allow_none) {
  Input in;
  if (o.is_none()) {
    if (!allow_none) throw py::type_error(absl::StrCat(what, " is None"));
    return in;
  }
  if (IsObject(o)) {
    in.value = o.cast<const PyValue&>().value;  // shares its nodes
    in.form = Form::kObject;
    return in;
  }
  if (IsText(o)) {
    in.text = o.cast<std::string>();  // str as UTF-8, or bytes
    const size_t first = in.text->find_first_not_of(" \t\r\n");
    in.form = first != std::string::npos && (*in.text)[first] == '{'
                  ? Form::kJson
                  : Form::kYaml;
    return in;
  }
  FromPython reader(limits.max_depth);
  in.value = reader.Convert(o.ptr());
  if (!in.value.IsMap()) {
    RaiseMessage("InvalidError",
                 absl::StrCat(what, ": expected an object (a map)"));
  }
  return in;
}

// Without the GIL: parses the text TakeInput kept, if any. The error names
// `what`; RaiseStatus(..., "InvalidError") raises it.
absl::Status ParseInput(Input* in, const Limits& limits, const char* what,
                        bool allow_none) {
  if (!in->text.has_value()) return absl::OkStatus();
  absl::StatusOr<Value> v = ParseYamlOrJson(*in->text, limits);
  in->text.reset();
  if (!v.ok()) {
    return absl::Status(v.status().code(),
                        absl::StrCat(what, ": ", v.status().message()));
  }
  in->value = *std::move(v);
  if (!in->value.IsMap() && !(allow_none && in->value.IsNull())) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": expected an object (a map)"));
  }
  return absl::OkStatus();
}

// Both steps, for a call that reads one input and then works with the GIL.
Input ReadInput(const py::handle& o, const Limits& limits, const char* what,
                bool allow_none) {
  Input in = TakeInput(o, limits, what, allow_none);
  absl::Status st;
  if (in.text.has_value()) {
    WithoutGil unlocked;
    st = ParseInput(&in, limits, what, allow_none);
  }
  if (!st.ok()) RaiseStatus(st, "InvalidError");
  return in;
}

Form OutputForm(const std::optional<std::string>& output, Form input) {
  if (!output.has_value()) return input;
  if (*output == "dict") return Form::kDict;
  if (*output == "json") return Form::kJson;
  if (*output == "yaml") return Form::kYaml;
  if (*output == "object") return Form::kObject;
  throw py::value_error(absl::StrCat("output must be \"dict\", \"json\", "
                                     "\"yaml\" or \"object\", not \"",
                                     *output, "\""));
}

bool IsTextForm(Form form) {
  return form == Form::kJson || form == Form::kYaml;
}

// JSON or YAML text of `v`, for a text form. Call without the GIL.
std::string WriteText(const Value& v, Form form) {
  return form == Form::kJson ? ToJson(v) : ToYaml(v);
}

// ---- smdx.Object -----------------------------------------------------------

PyValue MakeObject(const py::object& o) {
  return PyValue{ReadInput(o, Limits(), "the object", false).value};
}

// The text of an Object (Form::kJson or kYaml), written without the GIL.
py::str ObjectText(const PyValue& v, Form form) {
  std::string text;
  {
    WithoutGil unlocked;
    text = WriteText(v.value, form);
  }
  return py::str(text);
}

py::object ObjectEquals(const PyValue& v, const py::object& other) {
  if (!IsObject(other)) {
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  }
  const Value& w = other.cast<const PyValue&>().value;
  bool same;
  {
    WithoutGil unlocked;
    same = SameNode(v.value, w) || Equals(v.value, w);
  }
  return py::bool_(same);
}

std::string ObjectRepr(const PyValue& v) {
  std::string out = "<smdx.Object";
  const Value* metadata = Find(v.value, "metadata");
  for (const auto& [label, s] :
       {std::pair{"apiVersion", FindString(v.value, "apiVersion")},
        std::pair{"kind", FindString(v.value, "kind")},
        std::pair{"namespace", metadata != nullptr
                                   ? FindString(*metadata, "namespace")
                                   : nullptr},
        std::pair{"name", metadata != nullptr ? FindString(*metadata, "name")
                                              : nullptr}}) {
    if (s != nullptr) {
      absl::StrAppend(&out, " ", label, "=", ToJson(Value(*s)));
    }
  }
  return out + ">";
}

// ---- Schema and FieldManager -----------------------------------------------

struct PySchema {
  std::shared_ptr<const Catalog> catalog;
};

std::shared_ptr<const Catalog> CatalogOf(const std::optional<PySchema>& s) {
  if (s.has_value()) return s->catalog;
  static const auto* builtin =
      new std::shared_ptr<const Catalog>(std::make_shared<Catalog>(
          Catalog::Builtin()));
  return *builtin;
}

PySchema LoadSchema(const py::args& documents) {
  std::vector<std::string> docs;
  for (const py::handle& d : documents) {
    if (!PyUnicode_Check(d.ptr()) && !PyBytes_Check(d.ptr())) {
      throw py::type_error("schema documents are str or bytes (JSON or YAML)");
    }
    docs.push_back(d.cast<std::string>());
  }
  if (docs.empty()) throw py::type_error("Schema.load() needs a document");
  absl::StatusOr<Catalog> c = [&] {
    WithoutGil unlocked;
    return Catalog::FromDocuments(docs);
  }();
  if (!c.ok()) RaiseStatus(c.status(), "SchemaError");
  return PySchema{std::make_shared<const Catalog>(*std::move(c))};
}

class PyFieldManager {
 public:
  PyFieldManager(const std::string& api_version, const std::string& kind,
                 const std::string& subresource,
                 const std::optional<PySchema>& schema, bool apply_defaults,
                 bool builtin_defaults, bool reset_fields, bool track_on_create,
                 int max_update_managers, const py::object& now)
      : catalog_(CatalogOf(schema)) {
    if (max_update_managers < 0) {
      throw py::value_error("max_update_managers must not be negative");
    }
    ResourceOptions r;
    r.api_version = api_version;
    r.kind = kind;
    r.subresource = subresource;
    r.apply_defaults = apply_defaults;
    r.builtin_defaults = builtin_defaults;
    r.reset_fields = reset_fields;
    r.track_on_create = track_on_create;
    r.max_update_managers = max_update_managers;
    if (!now.is_none()) {
      std::string text;
      if (py::isinstance<py::str>(now)) {
        text = now.cast<std::string>();
      } else if (py::hasattr(now, "isoformat") && py::hasattr(now, "tzinfo")) {
        if (now.attr("tzinfo").is_none()) {
          throw py::value_error("now must be an aware datetime (with tzinfo)");
        }
        py::object utc =
            py::module_::import("datetime").attr("timezone").attr("utc");
        text = now.attr("astimezone")(utc)
                   .attr("strftime")("%Y-%m-%dT%H:%M:%SZ")
                   .cast<std::string>();
      } else {
        throw py::type_error("now is a datetime or an RFC 3339 string");
      }
      absl::StatusOr<absl::Time> t = ParseManagedTime(text);
      if (!t.ok()) {
        throw py::value_error(absl::StrCat("now: ", t.status().message()));
      }
      clock_ = std::make_unique<ManualClock>(*t);
      r.clock = clock_.get();
    }
    limits_ = r.limits;
    absl::StatusOr<FieldManager> fm = catalog_->NewFieldManager(r);
    if (!fm.ok()) RaiseStatus(fm.status(), "InvalidError");
    fm_.emplace(*std::move(fm));
  }

  py::object Apply(const py::object& live, const py::object& config,
                   const std::string& manager, bool force,
                   const std::optional<std::string>& output, bool as_kubectl,
                   bool client_side) const {
    return Run(live, config, manager, force, output,
               ApplyOp(force, as_kubectl, client_side));
  }

  py::object Update(const py::object& live, const py::object& object,
                    const std::string& manager,
                    const std::optional<std::string>& output) const {
    return Run(live, object, manager, false, output, Op::kUpdate);
  }

  py::object Patch(const py::object& live, const py::object& patch,
                   const std::string& manager, const std::string& type,
                   const std::optional<std::string>& output) const {
    absl::StatusOr<PatchType> t = ParsePatchType(type);
    if (!t.ok()) throw py::value_error(std::string(t.status().message()));
    Request q;
    q.live = ReadInput(live, limits_, "the live object", /*allow_none=*/false);
    q.form = OutputForm(output, q.live.form);
    const Value p = ReadPatch(patch);
    {
      WithoutGil unlocked;
      q.r = smdx::Patch(*fm_, q.live.value, p, *t, manager);
      if (q.r.ok() && IsTextForm(q.form)) q.text = WriteText(q.r.object, q.form);
    }
    return Finish(&q);
  }

  const std::string& api_version() const { return fm_->options().api_version; }
  const std::string& kind() const { return fm_->options().kind; }
  const std::string& subresource() const {
    return fm_->options().subresource;
  }

 private:
  // A request: the apiserver's apply, kubectl's server-side apply
  // (fieldmanager/kubectl_apply.h), or an update.
  enum class Op { kApply, kKubectlApply, kClientSideApply, kUpdate };

  // The request apply's flags ask for.
  static Op ApplyOp(bool force, bool as_kubectl, bool client_side) {
    if (client_side && (as_kubectl || force)) {
      throw py::value_error(
          "client_side does not go with as_kubectl or force (kubectl's "
          "client-side apply overwrites what it changes)");
    }
    return client_side  ? Op::kClientSideApply
           : as_kubectl ? Op::kKubectlApply
                        : Op::kApply;
  }

  // One apply or update of a call: read with the GIL (Read), worked without
  // it (Work), and made the caller's with it again (Finish).
  struct Request {
    Input live;
    Input body;
    Form form = Form::kDict;
    absl::Status bad;
    FieldManagerResult r;
    std::string text;
  };

  // With the GIL: the inputs of one request, read in order, errors
  // included. Text is parsed later, without the GIL, only when what follows
  // it is text too.
  Request Read(const py::handle& live, const py::handle& body,
               const std::optional<std::string>& output, bool apply) const {
    const char* const live_what = "the live object";
    Request q;
    q.live = IsText(body)
                 ? TakeInput(live, limits_, live_what, /*allow_none=*/true)
                 : ReadInput(live, limits_, live_what, /*allow_none=*/true);
    q.body = TakeInput(body, limits_, BodyWhat(apply), /*allow_none=*/false);
    q.form = OutputForm(output, q.body.form);
    return q;
  }

  // A patch: a dict or list (a JSON patch's operations), JSON/YAML text, or
  // an smdx.Object.
  Value ReadPatch(const py::handle& o) const {
    if (IsObject(o)) return o.cast<const PyValue&>().value;
    if (IsText(o)) {
      absl::StatusOr<Value> v =
          ParseYamlOrJson(o.cast<std::string>(), limits_);
      if (!v.ok()) {
        RaiseStatus(absl::Status(v.status().code(),
                                 absl::StrCat("the patch: ",
                                              v.status().message())),
                    "InvalidError");
      }
      return *std::move(v);
    }
    return FromPython(limits_.max_depth).Convert(o.ptr());
  }

  static const char* BodyWhat(bool apply) {
    return apply ? "the configuration" : "the object";
  }

  // With or without the GIL (it touches no Python object): parses what
  // Read kept as text, applies or updates, and writes text for a text form.
  void Work(Request* q, const std::string& manager, bool force, Op op) const {
    const bool apply = op != Op::kUpdate;
    q->bad = ParseInput(&q->live, limits_, "the live object",
                        /*allow_none=*/true);
    if (q->bad.ok()) {
      q->bad = ParseInput(&q->body, limits_, BodyWhat(apply),
                          /*allow_none=*/false);
    }
    if (q->bad.ok()) {
      switch (op) {
        case Op::kApply:
          q->r = fm_->Apply(q->live.value, q->body.value, manager, force);
          break;
        case Op::kKubectlApply:
          q->r = KubectlServerSideApply(*fm_, q->live.value, q->body.value,
                                        manager, force);
          break;
        case Op::kClientSideApply:
          q->r = KubectlClientSideApply(*fm_, q->live.value, q->body.value,
                                        manager);
          break;
        case Op::kUpdate:
          q->r = fm_->Update(q->live.value, q->body.value, manager);
          break;
      }
      if (q->r.ok() && IsTextForm(q->form))
        q->text = WriteText(q->r.object, q->form);
      // What the caller gets is the text, the object, or the object made a
      // dict (with the GIL): the rest of the result goes here, so that text
      // needs no second release to drop it.
      ManagedState drop_managed = std::move(q->r.managed);
      if (IsTextForm(q->form)) {
        Value drop_object = std::move(q->r.object);
      }
    }
    // The inputs go here too, and the dict result of this thread's call
    // before (see Run).
    Input drop_live = std::move(q->live);
    Input drop_body = std::move(q->body);
    Value drop_result = std::move(LastResult());
  }

  // A dict result's Value, dropped by the next call of the same thread
  // while it works without the GIL. Dropped at once, it took a release of
  // the GIL of its own, and two threads applying pod dicts handed the GIL
  // to each other there, each then waiting out a whole conversion of the
  // other's after a drop of a microsecond: two threads ran 0.75-0.81x one
  // thread in 3 of 12 rounds (1.69x the median), 1.07-1.20x at worst with
  // the drop kept (1.82x the median). At most one result per thread is
  // kept; the last goes with the thread.
  static Value& LastResult() {
    static thread_local Value last;
    return last;
  }
  // The same for ApplyMany's results, dropped by the thread's next
  // ApplyMany: a batch's results dropped with the GIL held took it for as
  // long as a conversion.
  static std::vector<Value>& LastResults() {
    static thread_local std::vector<Value> last;
    return last;
  }

  // With the GIL: what the caller gets of a worked request, or its error
  // raised. A dict result leaves its Value in q->r.object, for the caller
  // to drop (Run keeps it for the thread's next Work, ApplyMany its
  // results for its next call).
  py::object Finish(Request* q) const {
    if (!q->bad.ok()) RaiseStatus(q->bad, "InvalidError");
    if (!q->r.ok()) RaiseOutcome(q->r);
    if (!q->r.warnings.empty() || !q->r.server_warnings.empty() ||
        q->r.deleted) {
      py::object warn = py::module_::import("warnings").attr("warn");
      if (q->r.deleted) {
        warn("the apiserver deletes the object: the write leaves it, being "
             "deleted, without finalizers (the object returned is its "
             "answer, which it no longer holds)",
             ErrorClass("DeletedWarning"), 3);
      }
      for (const std::string& w : q->r.server_warnings) {
        warn(w, ErrorClass("ServerWarning"), 3);
      }
      for (const std::string& w : q->r.warnings) {
        warn(w, ErrorClass("ManagedFieldsWarning"), 3);
      }
    }
    if (q->form == Form::kObject)
      return py::cast(PyValue{std::move(q->r.object)});
    if (q->form == Form::kDict)
      return ToPythonConverter(&keys_).Convert(q->r.object);
    return py::str(q->text);
  }

  py::object Run(const py::object& live, const py::object& body,
                 const std::string& manager, bool force,
                 const std::optional<std::string>& output, Op op) const {
    const bool apply = op != Op::kUpdate;
    // Parsing, the apply and writing text run in one release of the GIL,
    // whatever the objects' size: with WithoutGil's spin, releasing it pays
    // even for dicts of a ConfigMap of ten keys (two threads 1.26x one,
    // 0.89x with the GIL held), and costs one thread nothing measurable.
    Request q = Read(live, body, output, apply);
    {
      WithoutGil unlocked;
      Work(&q, manager, force, op);
    }
    py::object out = Finish(&q);
    if (q.form == Form::kDict) LastResult() = std::move(q.r.object);
    return out;
  }

 public:
  py::list ApplyMany(const py::iterable& pairs, const std::string& manager,
                     bool force, const std::optional<std::string>& output,
                     bool return_exceptions, bool as_kubectl,
                     bool client_side) const {
    const Op op = ApplyOp(force, as_kubectl, client_side);
    // Every pair is read first, then all are applied in one release of the
    // GIL, then their results are made.
    std::vector<Request> qs;
    std::vector<py::object> failed;  // per pair: its exception, or null
    size_t i = 0;
    for (py::handle pair : pairs) {
      failed.emplace_back();
      qs.emplace_back();
      Catch(i++, return_exceptions, &failed.back(), [&] {
        if (!PySequence_Check(pair.ptr()) || PySequence_Size(pair.ptr()) != 2) {
          PyErr_Clear();
          throw py::type_error(
              "expected a (live, config) pair, got " +
              std::string(Py_TYPE(pair.ptr())->tp_name));
        }
        py::sequence two = py::reinterpret_borrow<py::sequence>(pair);
        qs.back() = Read(two[0], two[1], output, /*apply=*/true);
      });
    }
    {
      WithoutGil unlocked;
      LastResults().clear();
      for (size_t k = 0; k < qs.size(); ++k) {
        if (!failed[k]) Work(&qs[k], manager, force, op);
      }
    }
    py::list out;
    for (size_t k = 0; k < qs.size(); ++k) {
      if (!failed[k]) {
        Catch(k, return_exceptions, &failed[k],
              [&] { out.append(Finish(&qs[k])); });
      }
      if (failed[k]) out.append(failed[k]);
    }
    // The dict results' Values go with the thread's next call, without
    // the GIL, as Run's do (see LastResult).
    for (Request& q : qs) {
      if (q.form == Form::kDict && !q.r.object.IsNull())
        LastResults().push_back(std::move(q.r.object));
    }
    return out;
  }

 private:
  // Runs `step` for pair `index`. Its exception, told where it happened
  // (a note, from Python 3.11 on), is kept in `*failed` when
  // `return_exceptions`, raised otherwise.
  template <typename F>
  static void Catch(size_t index, bool return_exceptions, py::object* failed,
                    F&& step) {
    try {
      step();
      return;
    } catch (py::error_already_set& e) {
      *failed = e.value();
    } catch (py::builtin_exception& e) {
      e.set_error();
      *failed = py::error_already_set().value();
    }
    if (py::hasattr(*failed, "add_note")) {
      failed->attr("add_note")(absl::StrCat("in pairs[", index, "]"));
    }
    if (!return_exceptions) Raise(*failed);
  }

  std::shared_ptr<const Catalog> catalog_;
  std::unique_ptr<ManualClock> clock_;
  Limits limits_;
  std::optional<FieldManager> fm_;
  // The strs of the keys of results, kept between calls (with the GIL).
  mutable KeyStrs keys_;
};

// ---- Helpers on typed values -------------------------------------------------

Type TypeFor(const std::optional<PySchema>& schema,
             const std::optional<std::string>& type_name, const Value& v) {
  std::shared_ptr<const Catalog> c = CatalogOf(schema);
  absl::StatusOr<Type> t =
      type_name.has_value() ? c->Named(*type_name) : c->TypeOf(&v);
  if (!t.ok()) RaiseStatus(t.status(), "InvalidError");
  return *std::move(t);
}

void CheckValid(const Type& t, const Value& v, const char* what) {
  absl::Status st;
  {
    WithoutGil unlocked;
    st = Validate(t, v);
  }
  if (!st.ok()) {
    RaiseMessage("InvalidError", absl::StrCat(what, ": ", st.message()));
  }
}

void PyValidate(const py::object& obj, const std::optional<PySchema>& schema,
                const std::optional<std::string>& type_name) {
  Input in = ReadInput(obj, Limits(), "the object", false);
  CheckValid(TypeFor(schema, type_name, in.value), in.value, "the object");
}

py::dict PyDiff(const py::object& lhs, const py::object& rhs,
                const std::optional<PySchema>& schema,
                const std::optional<std::string>& type_name) {
  Input l = ReadInput(lhs, Limits(), "lhs", false);
  Input r = ReadInput(rhs, Limits(), "rhs", false);
  Type t = TypeFor(schema, type_name, r.value);
  CheckValid(t, l.value, "lhs");
  CheckValid(t, r.value, "rhs");
  Comparison c;
  {
    WithoutGil unlocked;
    c = CompareFields(t, &l.value, &r.value);
  }
  py::dict out;
  out["added"] = PathStrings(c.added);
  out["removed"] = PathStrings(c.removed);
  out["modified"] = PathStrings(c.modified);
  return out;
}

py::object PyFieldset(const py::object& obj,
                      const std::optional<PySchema>& schema,
                      const std::optional<std::string>& type_name) {
  Input in = ReadInput(obj, Limits(), "the object", false);
  Type t = TypeFor(schema, type_name, in.value);
  CheckValid(t, in.value, "the object");
  absl::StatusOr<Value> fields;
  {
    WithoutGil unlocked;
    fields = ParseJson(SerializeFieldsV1(ToFieldSet(t, in.value)));
  }
  if (!fields.ok()) RaiseStatus(fields.status(), "Error");
  return ToPython(*fields);
}

// The object with its managedFields upgraded, in its own form (or
// `output`'s).
py::object PyUpgradeManagedFields(const py::object& obj,
                                  const std::vector<std::string>& csa_managers,
                                  const std::string& ssa_manager,
                                  const std::string& subresource,
                                  const std::optional<std::string>& output) {
  Input in = ReadInput(obj, Limits(), "the object", false);
  const Form form = OutputForm(output, in.form);
  absl::StatusOr<ManagedFieldsUpgrade> up =
      UpgradeManagedFields(in.value, csa_managers, ssa_manager, subresource);
  if (!up.ok()) RaiseStatus(up.status(), "InvalidError");
  if (form == Form::kObject) return py::cast(PyValue{std::move(up->object)});
  if (IsTextForm(form)) return py::str(WriteText(up->object, form));
  return ToPython(up->object);
}

py::list PyLoadAll(const py::object& text, const std::string& output) {
  if (!PyUnicode_Check(text.ptr()) && !PyBytes_Check(text.ptr())) {
    throw py::type_error("load_all() reads str or bytes");
  }
  if (output != "dict" && output != "object") {
    throw py::value_error(absl::StrCat(
        "output must be \"dict\" or \"object\", not \"", output, "\""));
  }
  std::string t = text.cast<std::string>();
  absl::StatusOr<std::vector<Value>> docs;
  {
    WithoutGil unlocked;
    docs = ParseYamlOrJsonDocuments(t);
  }
  if (!docs.ok()) RaiseStatus(docs.status(), "InvalidError");
  py::list out;
  for (size_t i = 0; i < docs->size(); ++i) {
    const Value& d = (*docs)[i];
    if (d.IsNull()) continue;
    if (output == "dict") {
      out.append(ToPython(d));
    } else if (d.IsMap()) {
      out.append(py::cast(PyValue{d}));
    } else {
      RaiseMessage("InvalidError",
                   absl::StrCat("document ", i + 1, " of the stream: expected "
                                "an object (a map), for an smdx.Object"));
    }
  }
  return out;
}

py::dict PyBlame(const py::object& obj) {
  Input in = ReadInput(obj, Limits(), "the object", false);
  absl::StatusOr<std::vector<FieldOwners>> owners = Blame(in.value);
  if (!owners.ok()) RaiseStatus(owners.status(), "InvalidError");
  py::dict out;
  for (const FieldOwners& f : *owners) out[py::str(f.path)] = f.managers;
  return out;
}


// ---- Docstrings --------------------------------------------------------------

constexpr char kObjectDoc[] = R"(An object (a map) held in C++: made once from a dict or JSON/YAML text (str or bytes), then passed to FieldManager.apply and update, validate, diff, fieldset and blame with no conversion, and returned by them with output="object" (the default when the configuration is one).

Immutable: threads may share one, and a call on Objects runs without the GIL.
Equal (==) to an Object of equal content (SMD's equality: key order aside,
1 == 1.0). Pickled as its JSON text. Raises InvalidError when the input is no
object.)";

constexpr char kFieldManagerDoc[] = R"(Server-side apply and updates for one resource, as the apiserver runs them.

api_version and kind name the resource ("apps/v1", "Deployment"); subresource
is "status", "scale" or "" for the main resource (also a Pod's "resize" and
"ephemeralcontainers", a Namespace's "finalize", a CertificateSigningRequest's
"approval"; one the kind does not serve raises InvalidError). The schema (smdx.Schema) types
its objects; None is the built-in Kubernetes schema. apply_defaults defaults
results from the schema's defaults; builtin_defaults decodes and defaults
objects of built-in kinds as the apiserver does (Go types' zero values,
Kubernetes 1.37's defaulters, what a create gets from the registry), False
being the bare merge; reset_fields resets what the registry
strategy of the endpoint resets (.status on the main resource of a kind with a
status subresource); track_on_create tracks the fields of a create nobody
applied; max_update_managers Update entries are kept before the oldest merge
into "ancient-changes". now (an aware datetime or an RFC 3339 string) fixes the
time managedFields entries get; None is the system clock.

Managers recorded at another apiVersion are compared there, as the apiserver
converts objects (a HorizontalPodAutoscaler between autoscaling/v1 and v2);
an entry of a version the apiserver no longer serves goes with the next write.

Immutable once made: threads may share one, and the merge runs without the GIL.
Raises KindNotFoundError when the schema has no such kind.)";

constexpr char kApplyDoc[] = R"(Server-side apply of config by manager onto live.

live is the stored object with its metadata.managedFields (None: it does not
exist yet), at any version of the resource: one of another version is read at
the FieldManager's first, as the apiserver reads it. Objects are dicts,
JSON/YAML text (str or bytes) or smdx.Object.
Returns the object the server would store, with its managedFields, in the
form the configuration came in: a dict, text or an smdx.Object
(output="dict", "json", "yaml" or "object" chooses).
Nothing changes when it fails. Raises ConflictError when it would take fields
another manager owns with another value (unless force), or, with no
conflicts listed, when the configuration's resourceVersion is not live's
(storage's 409, which force does not lift), ImmutableError,
InvalidError (the object does not fit the schema, invalid managedFields, an
empty manager name), BadRequestError (another apiVersion or kind than the
resource's, managedFields in the configuration), LimitError.

as_kubectl=True runs what `kubectl apply --server-side` sends, not the apply
alone: on an object kubectl once applied client-side, the client-side
applier's fields then move to manager and the configuration is applied again,
which removes the fields it dropped (for the manager "kubectl" the
last-applied annotation is kept, owned by "kubectl-last-applied"). A later
step that fails is a ManagedFieldsWarning, and the object is what the steps
before it stored.

client_side=True runs what `kubectl apply` without --server-side sends (pass
manager="kubectl-client-side-apply", kubectl's): the configuration created
with its last-applied-configuration annotation, or the patch kubectl makes of
the annotation, the configuration and the live object (a strategic merge
patch by the Go types' tags, a merge patch for a custom resource); when it is
empty nothing is sent and the live object comes back (with a
ManagedFieldsWarning saying so). BadRequestError when kubectl cannot make its
patch (a list item without its merge key). Not with force or as_kubectl.)";

constexpr char kPatchDoc[] = R"(A non-apply patch of live (the stored object) by manager, as `kubectl patch --type strategic|merge|json` sends it and the apiserver runs it: a strategic merge patch (type="strategic", a dict: lists merge by the Go types' patchMergeKey, with $patch, $retainKeys, $setElementOrder and $deleteFromPrimitiveList directives; built-in kinds only), a JSON merge patch (type="merge", a dict) or a JSON patch (type="json", a list of operations; also as JSON/YAML text) applied to live, the result checked as the apiserver checks it (its name kept, its namespace kept or put back), then written as update writes it.

JSON patches are read as the apiserver's json-patch library reads them
(negative indexes count from the end, a replace of a missing key adds it,
...). Returns the object the server would store, in live's form (output
chooses). Raises InvalidError when an operation does not apply (naming it) or the
object the patch makes does not decode (the apiserver's 422),
BadRequestError for a malformed patch, a renamed object, no live object or
a strategic merge patch of a custom resource, Error (the base class) where
the apiserver answers 500 (a strategic merge patch setting a field the Go type
lacks inside an object, or a list item without its merge key).
On the scale subresource the patch applies to the Scale (autoscaling/v1).
Storage's checks follow, as for update: ConflictError (with no conflicts)
for a resourceVersion other than live's, InvalidError for another uid.)";

constexpr char kUpgradeDoc[] = R"(client-go's csaupgrade.UpgradeManagedFields: object with the fields of each of csa_managers' Update entries (of subresource, "" for the main resource) moved to ssa_manager's Apply entry, as kubectl moves a client-side applier's fields before its server-side apply (FieldManager.apply(..., as_kubectl=True) runs the whole).

Without such an Apply entry the first of the Update entries becomes it
(renamed; its apiVersion and time stay). Only the fields of the Update entry at
the Apply entry's apiVersion join; every Update entry of the manager and
subresource is removed. Managers go in the order given (Go's set order is
random: it decides which entry is renamed when several could be). Returns the
object in the form it came in (output chooses, as for apply); raises
InvalidError naming an invalid managedFields entry.)";

constexpr char kApplyManyDoc[] = R"(apply of each (live, config) pair of pairs by manager: a list of the results, in order.

The same as calling apply on each pair, with the GIL released once for all of
them instead of once per call: Python threads applying batches of objects
this way run side by side nearly as native threads do. Every pair is read
first, then all are applied, then their results are made. A pair that fails
raises its error (the first one, in that order) with a note naming the pair;
with return_exceptions=True the list holds that exception in its place
instead, and the other pairs' results.)";

constexpr char kUpdateDoc[] = R"(A write (create, update, the result of a non-apply patch) of object by manager over live (None: a create).

Returns what the server would store, as apply does. Invalid managedFields in
live are passed over with a ManagedFieldsWarning, and owner references the
body repeats are dropped with the apiserver's own warning (a ServerWarning),
as the apiserver does.
Raises ImmutableError, InvalidError, BadRequestError, LimitError; then what
the apiserver's storage refuses, with its message: ConflictError with no
conflicts when object's resourceVersion (or uid) is not live's (read live
again), InvalidError for a write without one to a kind whose strategy
requires it (custom resources, a Lease, ...), Error (the base class: the
apiserver's 500) for a create that carries one. A write that leaves an
object being deleted without finalizers deletes it: a DeletedWarning says so,
and the object returned is the apiserver's answer.)";

constexpr char kValidateDoc[] = R"(Checks object against its type: type_name, or its apiVersion and kind in schema (None: built-in).

Raises InvalidError naming every problem with its path.)";

constexpr char kDiffDoc[] = R"(The fields that differ from lhs to rhs, both typed as rhs is.

Returns {"added": [...], "removed": [...], "modified": [...]}, each a list of
paths as SMD prints them (".spec.replicas", '.spec.containers[name="app"]').)";

constexpr char kFieldsetDoc[] = R"(The fields object sets, as a managedFields entry's fieldsV1 (a dict).)";

constexpr char kLoadAllDoc[] = R"(The documents of JSON or YAML text (a YAML stream of several, as kubectl reads manifest files), without the empty ones: dicts, or smdx.Objects with output="object" (the text then read and held in C++ with no conversion). Raises InvalidError naming the document and line.)";

constexpr char kBlameDoc[] = R"(Who owns what: every path the object's managedFields entries own, with the managers that own it (the name, and "/SUBRESOURCE" for entries of a subresource), in the entries' order.

Raises InvalidError for invalid managedFields.)";

}  // namespace
}  // namespace smdx::python

PYBIND11_MODULE(_smdx, m) {
  using namespace smdx::python;  // NOLINT: the module's own names
  m.doc() = "The native part of smdx; import smdx instead.";
  py::class_<PySchema>(m, "Schema")
      .def_static(
          "builtin", [] { return PySchema{CatalogOf(std::nullopt)}; },
          "The embedded Kubernetes schema (v1.37 and the kinds of older "
          "apiVersions).")
      .def_static("load", &LoadSchema,
                  "Schema documents (JSON or YAML text): OpenAPI v2 or v3, SMD "
                  "schemas, CustomResourceDefinitions, bare schema objects. "
                  "Later documents replace types and kinds of earlier ones; "
                  "kinds they lack come from the built-in schema. Raises "
                  "SchemaError.")
      .def("type_name",
           [](const PySchema& s, const std::string& api_version,
              const std::string& kind) {
             absl::StatusOr<smdx::Type> t =
                 s.catalog->TypeOfKind(api_version, kind);
             if (!t.ok()) RaiseStatus(t.status(), "InvalidError");
             return t->name();
           },
           py::arg("api_version"), py::arg("kind"),
           "The name of the type objects of this apiVersion and kind have. "
           "Raises KindNotFoundError.")
      .def_property_readonly(
          "builtin_only", [](const PySchema& s) { return s.catalog->builtin(); },
          "Whether this is the embedded schema alone.");
  py::class_<PyValue> object_class(m, "Object", py::is_final(), kObjectDoc);
  object_type = reinterpret_cast<PyTypeObject*>(object_class.ptr());
  object_class.def(py::init(&MakeObject), py::arg("object"))
      .def(
          "to_dict",
          [](const PyValue& v) { return ToPython(v.value); },
          "The object as a dict (a new one at each call).")
      .def(
          "to_json",
          [](const PyValue& v) { return ObjectText(v, Form::kJson); },
          "The object as JSON text, as the apiserver writes it.")
      .def(
          "to_yaml",
          [](const PyValue& v) { return ObjectText(v, Form::kYaml); },
          "The object as YAML text, as kubectl writes it.")
      .def("__eq__", &ObjectEquals, py::arg("other"))
      .def("__repr__", &ObjectRepr)
      .def("__reduce__",
           [](const py::object& self) {
             return py::make_tuple(py::type::of(self),
                                   py::make_tuple(ObjectText(
                                       self.cast<const PyValue&>(),
                                       Form::kJson)));
           })
      .attr("__hash__") = py::none();
  py::class_<PyFieldManager>(m, "FieldManager")
      .def(py::init<const std::string&, const std::string&, const std::string&,
                    const std::optional<PySchema>&, bool, bool, bool, bool, int,
                    const py::object&>(),
           py::arg("api_version"), py::arg("kind"), py::arg("subresource") = "",
           py::kw_only(), py::arg("schema") = py::none(),
           py::arg("apply_defaults") = true, py::arg("builtin_defaults") = true,
           py::arg("reset_fields") = true,
           py::arg("track_on_create") = true,
           py::arg("max_update_managers") = 10, py::arg("now") = py::none(),
           kFieldManagerDoc)
      .def("apply", &PyFieldManager::Apply, py::arg("live"), py::arg("config"),
           py::arg("manager"), py::arg("force") = false, py::kw_only(),
           py::arg("output") = py::none(), py::arg("as_kubectl") = false,
           py::arg("client_side") = false, kApplyDoc)
      .def("apply_many", &PyFieldManager::ApplyMany, py::arg("pairs"),
           py::arg("manager"), py::arg("force") = false, py::kw_only(),
           py::arg("output") = py::none(),
           py::arg("return_exceptions") = false,
           py::arg("as_kubectl") = false, py::arg("client_side") = false,
           kApplyManyDoc)
      .def("update", &PyFieldManager::Update, py::arg("live"),
           py::arg("object"), py::arg("manager"), py::kw_only(),
           py::arg("output") = py::none(), kUpdateDoc)
      .def("patch", &PyFieldManager::Patch, py::arg("live"), py::arg("patch"),
           py::arg("manager"), py::kw_only(), py::arg("type"),
           py::arg("output") = py::none(), kPatchDoc)
      .def_property_readonly("api_version", &PyFieldManager::api_version)
      .def_property_readonly("kind", &PyFieldManager::kind)
      .def_property_readonly("subresource", &PyFieldManager::subresource);
  m.def("validate", &PyValidate, py::arg("object"), py::kw_only(),
        py::arg("schema") = py::none(), py::arg("type_name") = py::none(), kValidateDoc);
  m.def("diff", &PyDiff, py::arg("lhs"), py::arg("rhs"), py::kw_only(),
        py::arg("schema") = py::none(), py::arg("type_name") = py::none(), kDiffDoc);
  m.def("fieldset", &PyFieldset, py::arg("object"), py::kw_only(),
        py::arg("schema") = py::none(), py::arg("type_name") = py::none(), kFieldsetDoc);
  m.def("blame", &PyBlame, py::arg("object"), kBlameDoc);
  m.def("upgrade_managed_fields", &PyUpgradeManagedFields, py::arg("object"),
        py::arg("csa_managers"), py::arg("ssa_manager"),
        py::arg("subresource") = "", py::kw_only(),
        py::arg("output") = py::none(), kUpgradeDoc);
  m.def("load_all", &PyLoadAll, py::arg("text"), py::kw_only(),
        py::arg("output") = "dict", kLoadAllDoc);
  m.attr("__version__") = SMDX_VERSION_STRING;
  // The Kubernetes release whose built-in API the embedded schema holds.
  m.attr("kubernetes_version") = std::string(smdx::KubernetesVersion());
}
