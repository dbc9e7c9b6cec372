package main

// A small block-style YAML writer with the layout of the conformance corpus:
// block mappings and sequences, multi-line strings as literal blocks, field
// sets and paths as (JSON) flow text, scalars quoted only when yaml.v2 would
// otherwise read them as something else.

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	yaml "go.yaml.in/yaml/v2"
)

// flowText is written verbatim as a flow value (JSON is valid flow YAML).
type flowText string

// singleQuoted is a single-line string written in single quotes.
type singleQuoted string

type emitter struct {
	b strings.Builder
}

func emitDocument(ms yaml.MapSlice) string {
	var e emitter
	if len(ms) == 0 {
		return "{}\n"
	}
	e.writeMap(ms, 0, "")
	return e.b.String()
}

func spaces(n int) string { return strings.Repeat(" ", n) }

// writeMap writes the items of ms with their keys at column indent; the
// first key is preceded by prefixFirst instead of the indentation when given.
func (e *emitter) writeMap(ms yaml.MapSlice, indent int, prefixFirst string) {
	for i, it := range ms {
		if i == 0 && prefixFirst != "" {
			e.b.WriteString(prefixFirst)
		} else {
			e.b.WriteString(spaces(indent))
		}
		e.b.WriteString(keyText(it.Key))
		e.b.WriteString(":")
		e.writeValue(it.Value, indent)
	}
}

func (e *emitter) writeList(l []interface{}, indent int) {
	for _, item := range l {
		switch t := item.(type) {
		case yaml.MapSlice:
			if len(t) > 0 {
				e.writeMap(t, indent+2, spaces(indent)+"- ")
				continue
			}
		}
		e.b.WriteString(spaces(indent))
		e.b.WriteString("-")
		e.writeValue(item, indent)
	}
}

// writeValue writes a value that follows "key:" or "-" whose owner is at
// column col, including the final newline.
func (e *emitter) writeValue(v interface{}, col int) {
	switch t := v.(type) {
	case yaml.MapSlice:
		if len(t) == 0 {
			e.b.WriteString(" {}\n")
			return
		}
		e.b.WriteString("\n")
		e.writeMap(t, col+2, "")
	case []interface{}:
		if len(t) == 0 {
			e.b.WriteString(" []\n")
			return
		}
		e.b.WriteString("\n")
		e.writeList(t, col+2)
	case flowText:
		e.b.WriteString(" ")
		e.b.WriteString(string(t))
		e.b.WriteString("\n")
	case singleQuoted:
		e.b.WriteString(" '")
		e.b.WriteString(strings.ReplaceAll(string(t), "'", "''"))
		e.b.WriteString("'\n")
	case string:
		if strings.Contains(t, "\n") && literalSafe(t) {
			e.writeLiteral(t, col)
			return
		}
		e.b.WriteString(" ")
		e.b.WriteString(scalarText(t))
		e.b.WriteString("\n")
	default:
		e.b.WriteString(" ")
		e.b.WriteString(scalarText(t))
		e.b.WriteString("\n")
	}
}

// writeLiteral writes s as a literal block scalar, content at col+2.
func (e *emitter) writeLiteral(s string, col int) {
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	lines := strings.Split(body, "\n")
	header := "|"
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if l[0] == ' ' {
			header += "2"
		}
		break
	}
	switch {
	case trailing == 0:
		header += "-"
	case trailing > 1:
		header += "+"
	}
	e.b.WriteString(" " + header + "\n")
	ind := spaces(col + 2)
	for _, l := range lines {
		if l == "" {
			e.b.WriteString("\n")
			continue
		}
		e.b.WriteString(ind)
		e.b.WriteString(l)
		e.b.WriteString("\n")
	}
	for i := 1; i < trailing; i++ {
		e.b.WriteString("\n")
	}
}

func literalSafe(s string) bool {
	body := strings.TrimRight(s, "\n")
	if body == "" {
		return false
	}
	for _, l := range strings.Split(body, "\n") {
		// Lines made only of blanks confuse the indentation detection.
		if l != "" && strings.TrimSpace(l) == "" {
			return false
		}
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if r == '\r' || r == 0xFEFF || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

func keyText(k interface{}) string {
	switch t := k.(type) {
	case string:
		if strings.Contains(t, "\n") {
			return quoteJSON(t)
		}
		return scalarText(t)
	default:
		return scalarText(t)
	}
}

// scalarText renders a scalar so that yaml.v2 reads it back as the same value.
func scalarText(v interface{}) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		if t {
			return "true"
		}
		return "false"
	case string:
		if plainSafe(t) {
			return t
		}
		return quoteJSON(t)
	case int:
		return strconv.FormatInt(int64(t), 10)
	case int8:
		return strconv.FormatInt(int64(t), 10)
	case int16:
		return strconv.FormatInt(int64(t), 10)
	case int32:
		return strconv.FormatInt(int64(t), 10)
	case int64:
		return strconv.FormatInt(t, 10)
	case uint:
		return strconv.FormatUint(uint64(t), 10)
	case uint8:
		return strconv.FormatUint(uint64(t), 10)
	case uint16:
		return strconv.FormatUint(uint64(t), 10)
	case uint32:
		return strconv.FormatUint(uint64(t), 10)
	case uint64:
		return strconv.FormatUint(t, 10)
	case float32:
		return floatText(float64(t))
	case float64:
		return floatText(t)
	case flowText:
		return string(t)
	case singleQuoted:
		return "'" + strings.ReplaceAll(string(t), "'", "''") + "'"
	default:
		return quoteJSON(flowString(canon(v)))
	}
}

// floatText writes a float that always reads back as a float (it carries a
// decimal point).
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if strings.ContainsAny(s, ".") {
		return s
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i] + ".0" + s[i:]
	}
	return s + ".0"
}

func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

var plainCache = map[string]bool{}

// plainSafe tells whether s can be written as a plain scalar: no indicator
// characters where they matter, and yaml.v2 resolves it as this very string.
func plainSafe(s string) bool {
	if s == "" || len(s) > 512 {
		return false
	}
	if ok, found := plainCache[s]; found {
		return ok
	}
	ok := plainSafeUncached(s)
	plainCache[s] = ok
	return ok
}

func plainSafeUncached(s string) bool {
	if strings.TrimSpace(s) != s {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	for _, r := range s {
		if r == 0xFEFF || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
		if r == '\t' || r == '\n' || r == '\r' {
			return false
		}
	}
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte("k: "+s+"\n"), &m); err != nil {
		return false
	}
	got, ok := m["k"].(string)
	return ok && got == s
}

// spacedJSON adds a blank after ':' and ',' outside strings, the layout the
// corpus uses for fieldsV1 and paths.
func spacedJSON(b []byte) string {
	var out strings.Builder
	inStr, esc := false, false
	for _, c := range b {
		out.WriteByte(c)
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case ':', ',':
			out.WriteByte(' ')
		}
	}
	return out.String()
}

// flowStrings writes a list of strings as a JSON flow sequence.
func flowStrings(l []string) flowText {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if l == nil {
		l = []string{}
	}
	_ = enc.Encode(l)
	return flowText(spacedJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
}
