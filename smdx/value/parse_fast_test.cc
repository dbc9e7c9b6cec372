// The fast JSON and YAML readers (value/json_fast.h, value/yaml_fast.h)
// against the full parsers they stand in for: for every input, ParseJson,
// ParseYaml and ParseYamlDocuments must give exactly what nlohmann and
// yaml-cpp give (the same Values, ints and floats apart and map keys in
// order, or the same error), whether the fast reader took the input or
// declined it.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/internal/byte_scan.h"
#include "smdx/value/internal/parse.h"
#include "smdx/value/json_fast.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"
#include "smdx/value/yaml_fast.h"

namespace smdx {
namespace {

using testing::Same;

std::string Show(const absl::StatusOr<Value>& v) {
  if (!v.ok()) return v.status().ToString();
  return ToJson(*v).substr(0, 2000);
}

std::string Show(const absl::StatusOr<std::vector<Value>>& v) {
  if (!v.ok()) return v.status().ToString();
  std::string out = absl::StrCat(v->size(), " documents:");
  for (const Value& d : *v) absl::StrAppend(&out, "\n  ", ToJson(d));
  return out.substr(0, 2000);
}

bool SameResult(const absl::StatusOr<Value>& a,
                const absl::StatusOr<Value>& b) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return a.status() == b.status();
  return Same(*a, *b);
}

bool SameResult(const absl::StatusOr<std::vector<Value>>& a,
                const absl::StatusOr<std::vector<Value>>& b) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return a.status() == b.status();
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i) {
    if (!Same((*a)[i], (*b)[i])) return false;
  }
  return true;
}

// The corpus holds schema documents bigger than an object may be.
const Limits& Roomy() {
  static const Limits kRoomy = SchemaDocumentLimits();
  return kRoomy;
}

bool FastYamlTakes(absl::string_view text) {
  std::vector<internal::FastYamlDocument> docs;
  return internal::FastParseYamlStream(text, Roomy(), &docs);
}

// Checks that ParseYaml and ParseYamlDocuments agree with yaml-cpp on
// `text`; returns whether the fast reader took it.
bool ExpectYamlMatches(absl::string_view text, absl::string_view where) {
  absl::StatusOr<Value> fast = ParseYaml(text, Roomy());
  absl::StatusOr<Value> slow = internal::ParseYamlWithYamlCpp(text, Roomy());
  EXPECT_TRUE(SameResult(fast, slow))
      << where << "\n--- text:\n"
      << text.substr(0, 2000) << "\n--- fast path:\n"
      << Show(fast) << "\n--- yaml-cpp:\n"
      << Show(slow);
  absl::StatusOr<std::vector<Value>> fast_docs =
      ParseYamlDocuments(text, Roomy());
  absl::StatusOr<std::vector<Value>> slow_docs =
      internal::ParseYamlDocumentsWithYamlCpp(text, Roomy());
  EXPECT_TRUE(SameResult(fast_docs, slow_docs))
      << where << "\n--- text:\n"
      << text.substr(0, 2000) << "\n--- fast path:\n"
      << Show(fast_docs) << "\n--- yaml-cpp:\n"
      << Show(slow_docs);
  return FastYamlTakes(text);
}

bool ExpectJsonMatches(absl::string_view text, absl::string_view where) {
  absl::StatusOr<Value> fast = ParseJson(text, Roomy());
  absl::StatusOr<Value> slow = internal::ParseJsonWithNlohmann(text, Roomy());
  EXPECT_TRUE(SameResult(fast, slow))
      << where << "\n--- text:\n"
      << text.substr(0, 2000) << "\n--- fast path:\n"
      << Show(fast) << "\n--- nlohmann:\n"
      << Show(slow);
  return internal::FastParseJson(text, Roomy()).has_value();
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every .yaml, .yml and .json file of the project and of shared/ (test
// data, conformance cases, schemas, examples), build trees left out.
std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> out;
  for (const char* root : {SMDX_SOURCE_DIR, SMDX_SHARED_DIR}) {
    std::error_code ec;
    std::filesystem::recursive_directory_iterator it(root, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::filesystem::path& p = it->path();
      std::string name = p.filename().string();
      if (it->is_directory()) {
        if (absl::StartsWith(name, "build") || absl::StartsWith(name, ".")) {
          it.disable_recursion_pending();
        }
        continue;
      }
      if (absl::EndsWith(name, ".yaml") || absl::EndsWith(name, ".yml") ||
          absl::EndsWith(name, ".json")) {
        out.push_back(p);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Strings inside a document that may themselves be YAML: the conformance
// cases embed objects, schemas and managed fields as block scalars.
void CollectEmbedded(const Value& v, std::vector<std::string>* out) {
  if (v.IsString()) {
    const std::string& s = v.AsString();
    if (s.find('\n') != std::string::npos ||
        s.find(": ") != std::string::npos) {
      out->push_back(s);
    }
  } else if (v.IsList()) {
    for (const Value& c : v.list()) CollectEmbedded(c, out);
  } else if (v.IsMap()) {
    for (const MapEntry& e : v.map()) CollectEmbedded(e.value, out);
  }
}

TEST(FastParse, EveryCorpusFileAndEmbeddedDocumentMatchesTheFullParsers) {
  std::vector<std::filesystem::path> files = CorpusFiles();
  ASSERT_GT(files.size(), 40u) << "corpus not found under " << SMDX_SOURCE_DIR
                               << " and " << SMDX_SHARED_DIR;
  size_t common = 0, taken = 0, embedded = 0, embedded_taken = 0;
  for (const std::filesystem::path& p : files) {
    std::string text = ReadFile(p);
    std::string where = p.string();
    // The fuzzers' seeds are hostile on purpose: the readers must agree on
    // them, but need not take them.
    bool hostile = absl::StrContains(where, "/fuzz/corpus/");
    if (!hostile) ++common;
    if (p.extension() == ".json") {
      bool json_taken = ExpectJsonMatches(text, where);
      EXPECT_TRUE(json_taken ||
                  !internal::ParseJsonWithNlohmann(text, Roomy()).ok())
          << where << ": the fast JSON reader declined a valid document";
    }
    if (ExpectYamlMatches(text, where) && !hostile) ++taken;
    absl::StatusOr<std::vector<Value>> docs =
        internal::ParseYamlDocumentsWithYamlCpp(text, Roomy());
    if (!docs.ok()) continue;
    std::vector<std::string> strings;
    for (const Value& d : *docs) CollectEmbedded(d, &strings);
    for (size_t i = 0; i < strings.size(); ++i) {
      ++embedded;
      if (ExpectYamlMatches(strings[i], absl::StrCat(where, " string #", i))) {
        ++embedded_taken;
      }
    }
  }
  // The readers are only worth having if they take the common case.
  EXPECT_EQ(taken, common);
  EXPECT_GT(embedded, 1000u);
  EXPECT_GT(embedded_taken, embedded / 2);
}

TEST(FastParse, RealObjectsTakeTheFastPath) {
  for (const char* name : {"pod.yaml", "node.yaml", "endpoints.yaml",
                           "k8s-deployment.yaml", "apiresourceimport-cr.yaml",
                           "prometheus-crd.yaml", "k8s-schema.yaml"}) {
    std::string text = ReadFile(std::filesystem::path(SMDX_SHARED_DIR) /
                                "testdata/smd" / name);
    ASSERT_FALSE(text.empty()) << name;
    EXPECT_TRUE(FastYamlTakes(text)) << name;
  }
  for (const char* name : {"podset.json", "nodeset.json", "endpointsset.json",
                           "prometheus-crdset.json"}) {
    std::string text = ReadFile(std::filesystem::path(SMDX_SHARED_DIR) /
                                "testdata/smd" / name);
    ASSERT_FALSE(text.empty()) << name;
    EXPECT_TRUE(internal::FastParseJson(text, Limits()).has_value()) << name;
  }
}

// Inputs the fast YAML reader handles itself.
const char* const kTakenYaml[] = {
    "a: 1\nb: [x, \"y\", 'z', {c: d}]\nc: {e: [1, 2.5, -3], f: null, g: ~}\n",
    "- name: web\n  image: nginx:1.2\n  ports:\n  - containerPort: 80\n"
    "    protocol: TCP\n- name: side\n  args: [\"--a\", \"--b=c\"]\n",
    "key: |\n  line one\n    more indented\n\n  line three\n\nnext: >-\n"
    "  folded text\n  continues here\n\n  new para\n  \n   indented\n"
    "last: |+\n  keep\n\n",
    "k1: |2\n    two-indented\n  base\nk2: >+\n  x\n\n\nk3: |-\n  strip\n\n",
    "k: |\n  text\n# a comment after\nn: >\n\n  leading blank\n",
    "plain: this is\n  a multi-line\n\n  plain scalar\nq: \"double\n  quoted "
    "\\\n"
    "  escaped\\n \\t \\u00e9\"\nsq: 'it''s\n\n  single'\n",
    "anchors:\n  base: &b {x: 1, y: [a, b]}\n  copy: *b\n  scalar: &s hello\n"
    "  again: *s\n  list: &l\n  - 1\n  - 2\n  ref: *l\n",
    "a: &x 1\nb: &x 2\nc: *x\n",
    "---\na: 1\n...\n---\nb: 2\n---\n# only a comment\n",
    "a: 1\n...\nb: 2\n",
    "...\n",
    "---\n---\n",
    "",
    "# just a comment\n",
    "tags: !!str 123\nint: !!int \"42\"\nfloat: !!float 1\nbool: !!bool yes\n"
    "null: !!null \"\"\ncustom: !foo bar\nnon: ! 12\nbin: !!binary aGk=\n",
    "y: y\nn: n\n0x1F: 017\n1.5: .inf\n-.INF: .NaN\n~: null\n\"quoted key\": "
    "'v'\n"
    "'single key': \"v\"\n",
    "list:\n- a\n- - nested\n  - seq\n- key: v\n  k2: v2\n-\n- ~\n- \"\"\n- "
    "[]\n"
    "- {}\n",
    "flow: [a, [b, c], {d: e, f: [g]}, \"h, i\", 'j]']\n"
    "flow2: {a, b: , c: d,}\nflow3: [\n  x,\n  y\n]\nflow4: {\"k\":1}\n",
    "{\"a\":1,\"b\":[true,false,null],\"c\":\"\\u0041\"}\n",
    "  indented: root\n  map: here\n  seq:\n  - x\n",
    "scalar document\n",
    "multi\nline\n\nroot scalar\n",
    "- !!str 1\n- &x 2\n- *x\n- &y\n  a: b\n- *y\n",
    "a: \"x\n\n  y  \n z\"\nb: 'a\n  b'\nc: \"tab\\there\"\n",
    "all: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ "
    "\\\"\\'\\\\\\/\\N\\_\\L\\P\\x41\\xe9\\u00e9"
    "\\U0001F600\"\n",
    "url: http://example.com:8080/path?x=1#frag\ntime: 12:30:45\ncolon: a:b\n"
    "hash: a#b\ncomment: value # comment\n",
    "empty:\nalso_empty:\nnested:\n  deep:\n    deeper:\n      deepest: 1\n",
    "e1: \"\"\ne2: ''\ne3: \" \"\ne4: \"\\\\\"\ne5: '\\'\n",
    "\"a\": 1\n'b': 2\n\"c\" : 3\n",
    "ports:\n- containerPort: 8080\n  name: http # the port\n  # a comment "
    "line\n"
    "  protocol: TCP\n",
    "args:\n  - >\n    long folded\n    arg\n  - |\n    literal\n  - plain\n",
    "a: !!binary aGVsbG8=\nb: !!timestamp 2001-12-14\nc: 2001-12-14\n",
    "a: 12345678901234567890\nb: -9223372036854775808\nc: 0b101\nd: 1_000\n"
    "e: +12\nf: 1e3\ng: 1.0e+3\nh: .5\ni: 0o17\nj: 0x_1F\nk: -0\nl: 1.5e400\n",
    "a:\tb\nc:    d   \n",
    "- a\n  - b\n",
    "k: a\n  b\n\n  c\nd: 1\n",
    "a: 1\n---\n",
    "key: &anchor\n  child: 1\nother: *anchor\n",
    "- &a\n  - x\n- *a\n",
    // Runs longer than the 16 bytes the scans take at once, with their
    // stops before, at and after the 16th byte.
    "a_key_of_twenty_chars: a value of more than sixteen bytes\n"
    "b: sixteen bytes!:no, and a:b\n"
    "c: x:y:z:w:v:u:t:s:r:q # a comment after the colon run\n"
    "d: fifteen bytes\t# a comment after a tab\n"
    "e: a#b#c#d#e#f#g#h#i#j#k#l \t #\n"
    "f: trailing blanks after sixteen bytes     \n",
    "long_quoted: 'a single-quoted text that runs on and on, it''s long'\n"
    "two_lines: 'first line of the single-quoted text   \n"
    "   second line, indented, of the text  '\n"
    "double: \"a double-quoted text longer than sixteen \\\" bytes\"\n"
    "escaped_newline: \"the text goes on past sixteen bytes \\\n"
    "  and on\\t here\"\n"
    "blank_lines: \"sixteen bytes and more\n\n\n   then more text\"\n",
    "deep:\n          script: |\n            #!/bin/sh\n"
    "              indented more, and longer than sixteen bytes\n\n"
    "            echo done\n"
    "          folded: >\n            a folded line longer than sixteen\n"
    "            continues\n\n                more indented\n            back\n"
    "          kept: |+\n                      text\n\n"
    "          plain: a plain scalar\n                       continued deep\n"
    "            and back\n",
    // Scalars of more lines than the plain reader keeps in place, quoted
    // ones longer decoded than quoted (\L and \P: three bytes for two), and
    // ones that end in escaped quotes.
    "lines: one\n  two\n  three\n  four\n\n  five\n  six\n  seven\n"
    "  eight\n\n\n  nine\n  ten\n  eleven # done\n"
    "grows: \"\\L\\P\\L\\P\\L\\P\\L\\P\n  \\L\\P\\L\\P\\L\\P\\L\\P\"\n"
    "ends: 'it''s\n  it'''\nescaped: \"a \\\"quote\\\"\n  b\\\"\"\n",
    "deep:\n        eight:\n                sixteen:\n"
    "                         twenty_five: 1\n"
    "        back: 2\n",
};

// Inputs the fast YAML reader leaves to yaml-cpp (valid or not), with the
// reason. The results are still checked to match.
const char* const kDeclinedYaml[] = {
    "? complex\n: key\n",      // complex keys
    "%YAML 1.1\n---\na: 1\n",  // directives
    "a:\n\tb: 1\n",            // tab in indentation
    "a:\n          \tb: 1\n",  // (after more than eight spaces)
    "a:\n  b: x\n\t\n  c: y\n",  // (on an otherwise empty line)
    "a: a value of more than sixteen bytes: b\n",  // ": " in a value
    "a: 1\r\nb: 2\r\n",        // carriage returns
    "\xEF\xBB\xBF"
    "a: 1\n",               // byte order mark
    "a: \"x\x01\"\n",       // control characters
    "--- a: 1\n",           // content on the --- line
    "--- |\n  text\n",      // (a block scalar there too)
    "[a]: b\n",             // a flow collection as a key
    "*a : b\n",             // an alias as a key
    "&k a: b\n",            // an anchor on a key
    "a: [b\n  c]\n",        // multi-line plain scalar in flow
    "a: [k: v]\n",          // single-pair mapping in flow
    "a: !!str\nb: 1\n",     // a tag with no node
    "a: !<tag:x> 1\n",      // verbatim tags
    "- !!str |\n  text\n",  // properties before a block scalar
    "a: *undefined\n",      // errors of every kind:
    "a: &x [*x]\n",
    "a: 1\na: 2\n",
    "a: 1\nbb: 2\nccc: 3\ndddd: 4\nbb: 5\n",
    "{ax: 1, bx: 2, cx: 3, ax: 4}\n",
    "a: b: c\n",
    "a:\n  b: 1\n c: 2\n",
    "- a\nb: c\n",
    "a: \"unterminated\n",
    "a: !!int x\n",
    "a: \"\\q\"\n",
    "a: |0\n  x\n",
    "a: {b: 1\n",
    // An anchor alone on its line, and more properties starting the next:
    // yaml-cpp refuses a second anchor for the node (found by parse_fuzzer).
    "apiVee  : &os\ns  : &os\n &o l",
    "a: &x\n  &y b\n",
    "a: &x\n  !!str b\n",
};

TEST(FastParse, TargetedYamlMatchesYamlCpp) {
  for (const char* text : kTakenYaml) {
    EXPECT_TRUE(ExpectYamlMatches(text, "taken input"))
        << "the fast reader declined:\n"
        << text;
  }
  for (const char* text : kDeclinedYaml) {
    EXPECT_FALSE(ExpectYamlMatches(text, "declined input"))
        << "the fast reader took:\n"
        << text;
  }
}

TEST(FastParse, DeepNestingIsLeftToYamlCpp) {
  std::string deep(internal::kFastYamlMaxDepth + 1, '[');
  deep += std::string(internal::kFastYamlMaxDepth + 1, ']');
  EXPECT_FALSE(ExpectYamlMatches(deep, "deep flow"));
  std::string ok(internal::kFastYamlMaxDepth, '[');
  ok += std::string(internal::kFastYamlMaxDepth, ']');
  EXPECT_TRUE(ExpectYamlMatches(ok, "flow at the fast reader's limit"));
  std::string dashes;
  for (int i = 0; i < 1000; ++i) dashes += "- ";
  EXPECT_FALSE(ExpectYamlMatches(dashes + "x\n", "deep block"));
}

TEST(FastParse, TargetedJsonMatchesNlohmann) {
  const char* const taken[] = {
      "[1, -0, 0.5, -1.5e10, 1E-5, 9223372036854775807, 9223372036854775808,"
      " -9223372036854775808, -9223372036854775809, 18446744073709551615,"
      " 18446744073709551616, 1e308, 2.2250738585072014e-308, 4.9e-324, 0.0,"
      " -0.0, 1.7976931348623157e308]",
      "{\"a\\u0041\": \"\\ud83d\\ude00 \\u00e9 \\n\\t\\\" \\/ \\b\\f\\r\","
      " \"b\": [true, false, null, {}, []], \"\\u0000\": \"x\"}",
      "{\"caf\xC3\xA9\": \"\xE2\x82\xAC\xF0\x9F\x98\x80\x7F\"}",
      " \"s\" ",
      "42",
      "null",
      "{\"k\": "
      "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,"
      "\"i\":9,\"j\":10,\"k\":11,\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,"
      "\"q\":17,\"r\":18}}",
  };
  for (const char* text : taken) {
    EXPECT_TRUE(ExpectJsonMatches(text, "taken json")) << text;
  }
  const char* const declined[] = {
      "",
      "  ",
      "{",
      "[1,]",
      "{\"a\":1,}",
      "01",
      "1.",
      ".5",
      "+1",
      "-",
      "1e",
      "1e400",
      "-1e400",
      "1e-400",
      "tru",
      "nul",
      "[1 2]",
      "{\"a\" 1}",
      "{a:1}",
      "\"\\x\"",
      "\"\\ud800\"",
      "\"\\udc00\"",
      "\"\\ud800\\u0041\"",
      "\"a\nb\"",
      "\"\xC0\xAF\"",
      "\"\xED\xA0\x80\"",
      "\"\xF4\x90\x80\x80\"",
      "\"\xE2\x82\"",
      "[1] x",
      // Duplicate keys, apart, with keys of other lengths and endings.
      "{\"a\":1,\"bb\":2,\"ccc\":3,\"dddd\":4,\"bb\":5}",
      "{\"ax\":1,\"bx\":2,\"cx\":3,\"ax\":4}",
      "{\"a\":1,\"a\":2}",
      "// c\n1",
      "\xEF\xBB\xBF{}",
  };
  for (const char* text : declined) {
    EXPECT_FALSE(ExpectJsonMatches(text, "declined json")) << text;
  }
  std::string big = "{";
  for (int i = 0; i < 100; ++i) absl::StrAppend(&big, "\"k", i, "\":", i, ",");
  std::string dup = big + "\"k50\":1}";
  big += "\"last\":0}";
  EXPECT_TRUE(ExpectJsonMatches(big, "big map"));
  EXPECT_FALSE(ExpectJsonMatches(dup, "big map with a duplicate"));
  std::string deep(internal::kFastJsonMaxDepth + 1, '[');
  deep += std::string(internal::kFastJsonMaxDepth + 1, ']');
  EXPECT_FALSE(ExpectJsonMatches(deep, "deep json"));
}

TEST(FastParse, ParseYamlOrJsonMatchesTheFullParsers) {
  for (const char* text : {"{\"a\": 1.0}", "[1, 2]", "{a: 1}",
                           "{\"a\": 1, \"a\": 2}", "{", "[1, 2,]", "a: 1"}) {
    absl::StatusOr<Value> got = ParseYamlOrJson(text);
    absl::StatusOr<Value> want;
    absl::StatusOr<Value> json = internal::ParseJsonWithNlohmann(text);
    if (text[0] != '{' && text[0] != '[') {
      want = internal::ParseYamlWithYamlCpp(text);
    } else if (json.ok() ||
               !absl::StrContains(json.status().message(), "syntax error")) {
      want = json;
    } else {
      absl::StatusOr<Value> yaml = internal::ParseYamlWithYamlCpp(text);
      want = yaml.ok() ? yaml : json;
    }
    EXPECT_TRUE(SameResult(got, want)) << text << "\n"
                                       << Show(got) << "\n"
                                       << Show(want);
  }
}

// Random edits of the inputs above and of a real object: whatever the
// fast reader takes must read exactly as yaml-cpp reads it. (The same
// harness ran for millions of inputs while the readers were written.)
TEST(FastParse, MutatedInputsMatchTheFullParsers) {
  std::vector<std::string> seeds(std::begin(kTakenYaml), std::end(kTakenYaml));
  seeds.push_back(ReadFile(std::filesystem::path(SMDX_SHARED_DIR) /
                           "testdata/smd/pod.yaml"));
  const std::string chars = " :-#\n'\"[]{},|>&*!?.\t\\abc01~+%@`";
  const char* const snippets[] = {
      "- ", ": ",  "\n- ", "\n  ",   " # c",  "|\n",   ">-\n", "'",
      "\"", "&a ", "*a",   "!!str ", "---\n", "...\n", "[",    "]",
      "{",  "}",   ", ",   "\\n",    "''",    "\n\n",  "? ",   "- - "};
  std::mt19937 rng(20261122);
  int taken = 0;
  for (int it = 0; it < 4000; ++it) {
    std::string t = seeds[rng() % seeds.size()];
    for (int m = 1 + rng() % 3; m > 0; --m) {
      if (t.empty()) t = "a";
      size_t pos = rng() % (t.size() + 1);
      switch (rng() % 5) {
        case 0:
          if (pos < t.size()) t.erase(pos, 1);
          break;
        case 1:
          t.insert(pos, 1, chars[rng() % chars.size()]);
          break;
        case 2:
          if (pos < t.size()) t[pos] = chars[rng() % chars.size()];
          break;
        case 3: {
          size_t ls = t.rfind('\n', pos == 0 ? 0 : pos - 1);
          ls = ls == std::string::npos ? 0 : ls + 1;
          t.insert(ls, rng() % 2 ? " " : "  ");
          break;
        }
        default:
          t.insert(pos, snippets[rng() % std::size(snippets)]);
          break;
      }
    }
    if (!FastYamlTakes(t)) continue;
    ++taken;
    ExpectYamlMatches(t, absl::StrCat("mutation #", it));
  }
  EXPECT_GT(taken, 1000);
}

// ParseYaml checks a document's characters before the fast reader runs
// and tells it so (YamlBytes::kPrintableWithoutCr), which then looks only
// at the first byte. For text that passes that check and has no carriage
// return, the reader takes and declines exactly what it does unchecked;
// text with carriage returns still goes to yaml-cpp.
TEST(FastYaml, CheckedTextIsTakenAsUncheckedTextIs) {
  for (const std::string& text :
       {std::string("a: 1\n"), std::string("\xef\xbb\xbf" "a: 1\n"),
        std::string("a: \"caf\xc3\xa9\"\nb:\t2\n"),
        std::string("a: |\n  x\n  y\n"), std::string("- [1, 2]\n- {b: c}\n"),
        std::string("a: b\n---\nc: d\n"), std::string("\xc2\x85" "a: 1\n"),
        std::string("a: 1 # note\n")}) {
    std::vector<internal::FastYamlDocument> checked, unchecked;
    const bool took_checked = internal::FastParseYamlStream(
        text, Roomy(), &checked, internal::YamlBytes::kPrintableWithoutCr);
    const bool took_unchecked =
        internal::FastParseYamlStream(text, Roomy(), &unchecked);
    EXPECT_EQ(took_checked, took_unchecked) << text;
    if (took_checked && took_unchecked) {
      ASSERT_EQ(checked.size(), unchecked.size()) << text;
      for (size_t i = 0; i < checked.size(); ++i)
        EXPECT_TRUE(Same(checked[i].value, unchecked[i].value)) << text;
    }
    ExpectYamlMatches(text, "checked");
  }
  for (const std::string& text : {std::string("a: 1\r\nb: 2\r\n"),
                                 std::string("a: \"x\ry\"\n")}) {
    EXPECT_FALSE(FastYamlTakes(text)) << text;
    ExpectYamlMatches(text, "carriage return");
  }
}

// CopyJsonPlain: the writers' copy of a name or value that checks, in the
// same pass, whether JSON writes it as it is. Every length the word and
// block paths split differently, with each byte that needs an escape at
// each position, in a buffer whose bytes around the copy must not change.
TEST(ByteScan, CopiesAreExactAndChecksFindEveryEscape) {
  const std::string needs = std::string("\"\\<>&\x01\x1f\x7f\x80\xff", 10) +
                            std::string(1, '\0');
  for (size_t n = 0; n <= 40; ++n) {
    std::string plain;
    for (size_t i = 0; i < n; ++i) plain.push_back("abcXYZ09-._~ "[i % 13]);
    std::vector<std::string> inputs = {plain};
    for (char c : needs) {
      for (size_t at = 0; at < n; ++at) {
        std::string s = plain;
        s[at] = c;
        inputs.push_back(s);
      }
    }
    for (const std::string& in : inputs) {
      // What Go's encoder writes as it is: printable ASCII but for the
      // quote, the backslash and the HTML characters (bytes beyond ASCII
      // are checked as UTF-8 on the slow path).
      bool want = true;
      for (unsigned char c : in) {
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' ||
            c == '>' || c == '&') {
          want = false;
        }
      }
      std::string out(n + 8, '#');
      const bool is_plain = internal::CopyJsonPlain(&out[4], in.data(), n);
      EXPECT_EQ(is_plain, want) << n << " " << in;
      EXPECT_EQ(out, "####" + in + "####") << n;
      EXPECT_EQ(internal::JsonBytesArePlain(in.data(), n), want) << n;
      EXPECT_EQ(JsonStringIsPlain(in), want) << n;
      std::string copy(n + 8, '#');
      internal::CopyShort(&copy[4], in.data(), n);
      EXPECT_EQ(copy, "####" + in + "####") << n;
    }
  }
}

// The fast readers give every empty map of a thread's reads one node
// (fieldsV1 holds one per leaf): a write into one of them, through the
// copy-on-write of values, shows in no other.
TEST(FastParse, EmptyMapsShareANodeThatWritesUnshare) {
  const std::string texts[] = {
      R"({"a":{},"b":{},"c":{"d":{}},"e":[{}]})",
      "a: {}\nb: {}\nc:\n  d: {}\ne:\n- {}\n",
  };
  for (const std::string& text : texts) {
    absl::StatusOr<Value> parsed = ParseYamlOrJson(text, Limits());
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    Value v = *parsed;
    const Map& m = static_cast<const Value&>(v).map();
    const Value& a = *m.Find("a");
    const Value& b = *m.Find("b");
    const Value& d = *m.Find("c")->map().Find("d");
    const Value& e0 = m.Find("e")->list()[0];
    EXPECT_TRUE(SameNode(a, b)) << text;
    EXPECT_TRUE(SameNode(a, d)) << text;
    EXPECT_TRUE(SameNode(a, e0)) << text;
    // The next read on this thread shares it too.
    absl::StatusOr<Value> again = ParseYamlOrJson(text, Limits());
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(SameNode(a, *again->map().Find("b"))) << text;
    // Writes unshare.
    v.map().Find("a")->map().Set("x", Value(int64_t{1}));
    v.map().Find("c")->map().Find("d")->map().Set("y", Value("z"));
    EXPECT_EQ(ToJson(v),
              R"({"a":{"x":1},"b":{},"c":{"d":{"y":"z"}},"e":[{}]})")
        << text;
    EXPECT_EQ(ToJson(*again), R"({"a":{},"b":{},"c":{"d":{}},"e":[{}]})")
        << text;
    EXPECT_TRUE(again->map().Find("a")->map().empty());
  }
}

// The readers' scratch stacks (ContainerStackLease): each thread reuses
// one, a reader inside a reader gets its own, and nothing of one read is
// left for the next.
TEST(ContainerStackLease, AThreadReusesItsStackAndNestedReadsGetTheirOwn) {
  const internal::ContainerStack* first;
  {
    internal::ContainerStackLease outer(64);
    first = &outer.stack();
    internal::ContainerStackLease inner(64);
    EXPECT_NE(&inner.stack(), first);
    internal::ContainerStackLease none(0);
    EXPECT_NE(&none.stack(), first);
  }
  internal::ContainerStackLease again(64);
  EXPECT_EQ(&again.stack(), first);
}

TEST(ContainerStackLease, ThreadsTakeStacksOfTheirOwn) {
  const internal::ContainerStack* here;
  const internal::ContainerStack* there = nullptr;
  {
    internal::ContainerStackLease lease(64);
    here = &lease.stack();
    std::thread other([&] {
      internal::ContainerStackLease theirs(64);
      there = &theirs.stack();
    });
    other.join();
  }
  EXPECT_NE(here, there);
}

TEST(ContainerStackLease, AReadLeavesNothingAndLargeRoomIsGivenBack) {
  {
    internal::ContainerStackLease lease(64);
    internal::ContainerStack& s = lease.stack();
    Value item("an item");
    for (int i = 0; i < 5000; ++i) s.PushItem(Value(item));
    s.KeyAt(s.StartEntry()) = "left behind";
  }
  internal::ContainerStackLease lease(64);
  EXPECT_EQ(lease.stack().ListStart(), 0u);
  EXPECT_EQ(lease.stack().MapStart(), 0u);
  EXPECT_LE(lease.stack().Capacity(),
            internal::ContainerStack::kKeptCapacity);
}

TEST(ContainerStackLease, ReadsAfterADeclinedReadMatchTheFullParsers) {
  // The fast reader declines the first in the middle of a list, with
  // children on the stack; the second must not see them.
  const std::string declined = "a:\n- x\n- y\n- {b: [1, 2\n";
  EXPECT_FALSE(FastYamlTakes(declined));
  ExpectYamlMatches(declined, "declined");
  ASSERT_TRUE(FastYamlTakes("c: [3]\n"));
  EXPECT_TRUE(ExpectYamlMatches("c: [3]\n", "after a declined read"));
  EXPECT_FALSE(internal::FastParseJson("[1, [2, {\"a\": ", Limits()));
  std::optional<Value> json = internal::FastParseJson("[4]", Limits());
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(ToJson(*json), "[4]");
}

}  // namespace
}  // namespace smdx
