// adapter.go FILE: the Go template of a conformance adapter
// (docs/adapters.md "Adapter kit").  Copy it; replace readGGUF() by a call
// to your reader and the content map by a mapping of what it returns.
// Build: go build -o adapter adapter.go (Debian's golang-go).  Exits: 0
// accepted (first stdout line {"reader", "content"}; partial content is
// fine), 1 rejected (your reader's error), 77 unsupported, 3 a panic
// (recovered at the top: a crash for the runner; a fatal runtime error,
// e.g. a stack overflow, exits 2 by itself: also a crash).  stdout is
// flushed before every exit.  Type tables: ../types/tfs-types.json
// (generated from include/tfs/*.def; TFS_TYPES_JSON overrides the path),
// never retyped.
//
// The reader below is a stand-in: a small GGUF reader (header and KVs, no
// tensor infos), the same in every language of the kit (ctest
// test_adapter_template_*).
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

const reader = "toy-gguf (go template)"

type vtype struct {
	ID   int     `json:"id"`
	Name *string `json:"name"`
	Size int     `json:"size"`
}

func valueTypes() map[uint32]vtype {
	path := os.Getenv("TFS_TYPES_JSON")
	if path == "" {
		_, src, _, _ := runtime.Caller(0)
		path = filepath.Join(filepath.Dir(src), "..", "types", "tfs-types.json")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var t struct {
		GGUFValueTypes []vtype `json:"gguf_value_types"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		panic(err)
	}
	m := map[uint32]vtype{}
	for _, v := range t.GGUFValueTypes {
		if v.Name != nil {
			m[uint32(v.ID)] = v
		}
	}
	return m
}

// ---- the stand-in reader (replace by yours) ------------------------------
type rd struct {
	d   []byte
	pos uint64
	vt  map[uint32]vtype
}

func (r *rd) take(n uint64) ([]byte, error) {
	if n > uint64(len(r.d))-r.pos {
		return nil, fmt.Errorf("truncated at byte %d", r.pos)
	}
	r.pos += n
	return r.d[r.pos-n : r.pos], nil
}
func (r *rd) u32() (uint32, error) {
	b, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}
func (r *rd) u64() (uint64, error) {
	b, err := r.take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}
func (r *rd) str(what string) (string, error) {
	n, err := r.u64()
	if err != nil {
		return "", err
	}
	b, err := r.take(n)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%s", what)
	}
	return string(b), nil
}
func (r *rd) vtype() (vtype, error) {
	t, err := r.u32()
	if err != nil {
		return vtype{}, err
	}
	v, ok := r.vt[t]
	if !ok {
		return vtype{}, fmt.Errorf("invalid value type %d", t)
	}
	return v, nil
}
func (r *rd) scalar(v vtype) (interface{}, error) {
	b, err := r.take(uint64(v.Size))
	if err != nil {
		return nil, err
	}
	var u uint64
	for i := v.Size - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	switch name := *v.Name; {
	case name == "bool":
		if b[0] > 1 {
			return nil, fmt.Errorf("bool not 0 or 1")
		}
		return b[0] == 1, nil
	case name == "f32" || name == "f64":
		return fmt.Sprintf("0x%0*x", v.Size*2, u), nil
	case strings.HasPrefix(name, "i"):
		sh := uint(64 - 8*v.Size)
		s := int64(u<<sh) >> sh
		if v.Size == 8 {
			return strconv.FormatInt(s, 10), nil
		}
		return s, nil
	default:
		if v.Size == 8 {
			return strconv.FormatUint(u, 10), nil
		}
		return u, nil
	}
}
func isFloat(n string) bool { return n == "f32" || n == "f64" }

func (r *rd) readGGUF() (map[string]interface{}, error) {
	if os.Getenv("TFS_TEMPLATE_SELFTEST") == "uncaught" {
		var m map[string]int
		m["a bug in the reader"] = 1 // a nil map write: a panic, not an error
	}
	if len(r.d) < 4 || !bytes.Equal(r.d[:4], []byte("GGUF")) {
		return nil, fmt.Errorf("bad magic")
	}
	r.pos = 4
	version, err := r.u32()
	if err != nil {
		return nil, err
	}
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("unsupported version %d", version)
	}
	nTensors, err := r.u64()
	if err != nil {
		return nil, err
	}
	nKV, err := r.u64()
	if err != nil {
		return nil, err
	}
	left := uint64(len(r.d)) - r.pos
	if nKV > left/12 || nTensors > left/24 {
		return nil, fmt.Errorf("more KVs or tensors than the file can hold")
	}
	kvs := []map[string]interface{}{}
	for i := uint64(0); i < nKV; i++ {
		key, err := r.str("key is not UTF-8")
		if err != nil {
			return nil, err
		}
		if key == "" {
			return nil, fmt.Errorf("empty key")
		}
		t, err := r.vtype()
		if err != nil {
			return nil, err
		}
		kv := map[string]interface{}{"key": key, "type": *t.Name}
		switch *t.Name {
		case "string":
			if kv["value"], err = r.str("string value is not UTF-8"); err != nil {
				return nil, err
			}
		case "array":
			et, err := r.vtype()
			if err != nil {
				return nil, err
			}
			n, err := r.u64()
			if err != nil {
				return nil, err
			}
			if *et.Name == "array" {
				return nil, fmt.Errorf("nested array")
			}
			if n > uint64(len(r.d))-r.pos {
				return nil, fmt.Errorf("array longer than the file")
			}
			els := []interface{}{}
			for j := uint64(0); j < n; j++ {
				var e interface{}
				if *et.Name == "string" {
					e, err = r.str("string element is not UTF-8")
				} else {
					e, err = r.scalar(et)
				}
				if err != nil {
					return nil, err
				}
				els = append(els, e)
			}
			kv["elem_type"] = *et.Name
			if isFloat(*et.Name) {
				kv["bits"] = els
			} else {
				kv["value"] = els
			}
		default:
			v, err := r.scalar(t)
			if err != nil {
				return nil, err
			}
			if isFloat(*t.Name) {
				kv["bits"] = v
			} else {
				kv["value"] = v
			}
		}
		kvs = append(kvs, kv)
	}
	return map[string]interface{}{"format": "gguf", "version": version, "kv": kvs}, nil
}

// -------------------------------------------------------------------------

var out = bufio.NewWriter(os.Stdout)

func finish(code int, line interface{}) {
	if line != nil {
		b, _ := json.Marshal(line)
		out.Write(append(b, '\n'))
	}
	if out.Flush() != nil {
		code = 2
	}
	os.Exit(code)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: adapter FILE")
		os.Exit(2)
	}
	if !strings.HasSuffix(os.Args[1], ".gguf") {
		finish(77, nil)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "reader panicked: %v (a crash, not a verdict)\n", p)
			finish(3, nil)
		}
	}()
	r := &rd{d: data, vt: valueTypes()}
	content, err := r.readGGUF()
	if err != nil {
		finish(1, map[string]string{"reader": reader, "message": err.Error()})
	}
	finish(0, map[string]interface{}{"reader": reader, "content": content})
}
