// adapter.rs FILE: the Rust template of a conformance adapter
// (docs/adapters.md "Adapter kit").  Copy it; replace read_gguf() by a call
// to your reader and the content lines by a mapping of what it returns.
// Build: rustc --edition 2021 -O adapter.rs (or as a cargo bin with your
// crate as a dependency).  Exits: 0 accepted (first stdout line
// {"reader", "content"}; partial content is fine), 1 rejected (your reader's
// Err), 77 unsupported, 3 a panic (caught at the top: a crash for the
// runner; a stack overflow aborts, also a crash).  stdout is flushed before
// every exit.  Type tables: ../types/tfs-types.json (generated from
// include/tfs/*.def; TFS_TYPES_JSON overrides the path), never retyped.
//
// The reader below is a stand-in: a small GGUF reader (header and KVs, no
// tensor infos), the same in every language of the kit (ctest
// test_adapter_template_*).
use std::io::Write;

const READER: &str = "toy-gguf (rust template)";

/// GGUF value types (id -> name, size) from tfs-types.json.  A few lines
/// of scanning instead of a JSON crate: use serde_json in a real adapter.
fn value_types() -> Vec<Option<(String, usize)>> {
    let path = std::env::var("TFS_TYPES_JSON").unwrap_or_else(|_| {
        let exe = std::path::Path::new(file!()).parent().unwrap().join("../types/tfs-types.json");
        exe.to_string_lossy().into_owned()
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let start = text.find("\"gguf_value_types\"").expect("gguf_value_types");
    let body = &text[start..];
    let body = &body[body.find('[').unwrap() + 1..body.find(']').unwrap()];
    let mut out: Vec<Option<(String, usize)>> = Vec::new();
    for obj in body.split('}').filter(|o| o.contains("\"id\"")) {
        let field = |k: &str| -> String {
            let at = obj.find(&format!("\"{}\"", k)).unwrap() + k.len() + 2;
            let rest = obj[at..].trim_start().trim_start_matches(':').trim_start();
            rest.split(|c| c == ',' || c == '\n').next().unwrap().trim().trim_matches('"').to_string()
        };
        let id: usize = field("id").parse().unwrap();
        let name = field("name");
        let size: usize = field("size").parse().unwrap();
        if out.len() <= id {
            out.resize(id + 1, None);
        }
        out[id] = if name == "null" { None } else { Some((name, size)) };
    }
    out
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

// ---- the stand-in reader (replace by yours) ------------------------------
struct Rd<'a> {
    d: &'a [u8],
    pos: usize,
    vt: &'a [Option<(String, usize)>],
}

impl<'a> Rd<'a> {
    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        if n > (self.d.len() - self.pos) as u64 {
            return Err(format!("truncated at byte {}", self.pos));
        }
        let s = &self.d[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }
    fn le(b: &[u8]) -> u64 {
        b.iter().rev().fold(0u64, |v, &x| v << 8 | x as u64)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(Self::le(self.take(4)?) as u32)
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(Self::le(self.take(8)?))
    }
    fn string(&mut self, what: &str) -> Result<String, String> {
        let n = self.u64()?;
        let b = self.take(n)?;
        std::str::from_utf8(b).map(|s| s.to_string()).map_err(|_| what.to_string())
    }
    fn vtype(&mut self) -> Result<(String, usize), String> {
        let t = self.u32()?;
        match self.vt.get(t as usize) {
            Some(Some(v)) => Ok(v.clone()),
            _ => Err(format!("invalid value type {}", t)),
        }
    }
    fn scalar(&mut self, name: &str, size: usize) -> Result<String, String> {
        let b = self.take(size as u64)?;
        let u = Self::le(b);
        Ok(match name {
            "bool" if b[0] > 1 => return Err("bool not 0 or 1".into()),
            "bool" => (b[0] == 1).to_string(),
            "f32" | "f64" => format!("\"0x{:0w$x}\"", u, w = size * 2),
            n if n.starts_with('i') => {
                let sh = 64 - 8 * size as u32;
                let s = ((u << sh) as i64) >> sh;
                if size == 8 { format!("\"{}\"", s) } else { s.to_string() }
            }
            _ => if size == 8 { format!("\"{}\"", u) } else { u.to_string() },
        })
    }
    fn read_gguf(&mut self) -> Result<String, String> {
        if std::env::var("TFS_TEMPLATE_SELFTEST").as_deref() == Ok("uncaught") {
            panic!("a bug in the reader"); // not an Err: a crash
        }
        if self.d.len() < 4 || &self.d[..4] != b"GGUF" {
            return Err("bad magic".into());
        }
        self.take(4)?;
        let version = self.u32()?;
        if version != 2 && version != 3 {
            return Err(format!("unsupported version {}", version));
        }
        let (n_tensors, n_kv) = (self.u64()?, self.u64()?);
        let left = (self.d.len() - self.pos) as u64;
        if n_kv > left / 12 || n_tensors > left / 24 {
            return Err("more KVs or tensors than the file can hold".into());
        }
        let mut kvs = Vec::new();
        for _ in 0..n_kv {
            let key = self.string("key is not UTF-8")?;
            if key.is_empty() {
                return Err("empty key".into());
            }
            let (name, size) = self.vtype()?;
            let mut kv = format!("{{\"key\":{},\"type\":\"{}\"", json_str(&key), name);
            match name.as_str() {
                "string" => kv += &format!(",\"value\":{}", json_str(&self.string("string value is not UTF-8")?)),
                "array" => {
                    let (en, es) = self.vtype()?;
                    let n = self.u64()?;
                    if en == "array" {
                        return Err("nested array".into());
                    }
                    if n > (self.d.len() - self.pos) as u64 {
                        return Err("array longer than the file".into());
                    }
                    let mut els = Vec::new();
                    for _ in 0..n {
                        els.push(if en == "string" {
                            json_str(&self.string("string element is not UTF-8")?)
                        } else {
                            self.scalar(&en, es)?
                        });
                    }
                    let field = if en == "f32" || en == "f64" { "bits" } else { "value" };
                    kv += &format!(",\"elem_type\":\"{}\",\"{}\":[{}]", en, field, els.join(","));
                }
                _ => {
                    let field = if name == "f32" || name == "f64" { "bits" } else { "value" };
                    kv += &format!(",\"{}\":{}", field, self.scalar(&name, size)?);
                }
            }
            kvs.push(kv + "}");
        }
        Ok(format!("{{\"format\":\"gguf\",\"version\":{},\"kv\":[{}]}}", version, kvs.join(",")))
    }
}
// -------------------------------------------------------------------------

fn finish(code: i32, line: Option<String>) -> ! {
    let mut out = std::io::stdout().lock();
    if let Some(l) = line {
        let _ = writeln!(out, "{}", l);
    }
    let code = if out.flush().is_err() { 2 } else { code };
    std::process::exit(code)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: adapter FILE");
        finish(2, None);
    }
    if !args[1].ends_with(".gguf") {
        finish(77, None);
    }
    let data = std::fs::read(&args[1]).unwrap_or_else(|e| {
        eprintln!("{}: {}", args[1], e);
        finish(2, None)
    });
    let vt = value_types();
    let got = std::panic::catch_unwind(|| Rd { d: &data, pos: 0, vt: &vt }.read_gguf());
    match got {
        Ok(Ok(content)) => finish(0, Some(format!("{{\"reader\":\"{}\",\"content\":{}}}", READER, content))),
        Ok(Err(why)) => finish(1, Some(format!("{{\"reader\":\"{}\",\"message\":{}}}", READER, json_str(&why)))),
        Err(_) => {
            eprintln!("reader panicked: a crash, not a verdict");
            finish(3, None)
        }
    }
}
