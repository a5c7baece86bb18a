"""st_json_edges.py: safetensors headers at edges of st_json.c's string scanner and escape decoder
that no other fixture pins (issue 16, item 4; found by st_json.c mutants):
- a tensor name of exactly 8 bytes: its closing quote is the first byte after one 8-byte block;
- the escapes \\u007f, \\u0080, \\u07ff, \\u0800 in a __metadata__ value: the edges of the 1-, 2-
  and 3-byte UTF-8 forms the decoder writes (the expected content holds the decoded bytes), and
  \\uffff, \\ud800\\udc00, \\udbff\\udfff: the last 3-byte and the first and last 4-byte forms;
- \\u00Ge: a bad third hex digit followed by a good one (ST115 at the escape, not an end of text);
- a backslash as the header's last byte, alone and after a high surrogate escape, with data bytes
  after the header that are no escape letter: the end of the text (ST111), not ST115 / ST116;
- 1e308 (exponent 308 is in range for a significand of 1) and a minus sign as the header's last
  byte with data after it (ST111, not a number read from the data); an integer (10^308) and an
  exponent (1e30) ending with the header, one digit short of f64 overflow, data digits after them;
  1e ending with the header (no exponent digit yet); 1e288, the largest exponent below the power table
  (10^289 to 10^308) that the range test consults; 0 ending with the header with a digit after it
  (ST111, not ST110's leading zero read from the data); f64::MAX itself (valid) and 18446744073709551615e289
  (ST117: out of range at the power table's first exponent); a high surrogate then \\x ending the header, and then \\u0000 (ST116); -01 in a shape and in data_offsets (ST110 at the
  '1': the number is malformed before its sign matters); 1.25e-2147483647 (the exponent sum below i32::MIN:
  saturated, in range); the header ending where a skipped object's key starts, after '{' and after ',',
  and inside the dropped digits of a 25-digit decimal, with data bytes that would continue them (ST111).
  An array-form entry (["U8",[1],[0,1]]) with a bad dtype, shape or data_offsets: that field's rule;
  one whose dtype string holds a bad escape (the JSON error, at once). A bad escape letter as the
  header's last byte (ST115, not an end of text). 18446744073709551615.5e289: the dropped decimal
  digit does not move the exponent (ST117); 184467440737095516150e2147483647: the exponent sum past
  i32::MAX saturates (ST117); fals} (the literal's error at '}').
  The range edge at every exponent of the power table is a unit test (tests/safetensors/test_st_json.c).
Called by st_fixtures.py with its add(); every expectation is checked against the crate's recorded
verdict (corpus/CRATE_VERDICTS.tsv).
"""
from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'


def build(add):
    add("valid-name-8-bytes", st_file('{"abcdefgh":{%s}}' % E, 1),
        "a tensor name of exactly 8 bytes (its closing quote right after one 8-byte block)")
    add("valid-escape-utf8-form-edges", st_file('{"a":{%s},"__metadata__":{"k":"\\u007f\\u0080\\u07ff\\u0800"}}' % E, 1),
        "a __metadata__ value of \\u007f \\u0080 \\u07ff \\u0800: the last and first code point of each UTF-8 length")
    add("ST115-unicode-digit2-bad-then-e", st_file('{"a":{%s},"__metadata__":{"k":"\\u00Ge"}}' % E, 1),
        "\\u00Ge: the third hex digit bad, a good one after it", "ST115")
    add("ST115-escape-in-skipped-object-key", st_file('{"a":{%s,"x":{"b\\qc":1}}}' % E, 1),
        "a bad escape in a key of an object inside an ignored field (skipped, still scanned)", "ST115")
    add("valid-metadata-value-8-bytes", st_file('{"a":{%s},"__metadata__":{"k":"abcdefgh"}}' % E, 1),
        "a __metadata__ value of exactly 8 bytes (the generic string scanner: its closing quote right "
        "after one 8-byte block; tensor names go through the fast entry path)")
    add("ST111-low-surrogate-digits-cut", st_file('{"a":{%s},"__metadata__":{"k":"\\ud800\\udc0' % E, 1),
        "the header ends inside the low surrogate's four hex digits, after a high surrogate", "ST111")
    # the header ends right after a backslash; the data's first byte is no escape letter
    add("ST111-backslash-last-header-byte", st_file('{"a":{%s},"__metadata__":{"k":"v\\' % E, b"q"),
        "the header's last byte is a backslash inside a __metadata__ value; the data starts with 'q'", "ST111")
    add("ST111-high-surrogate-then-backslash-last", st_file('{"a":{%s},"__metadata__":{"k":"\\ud800\\' % E, b"x"),
        "a high surrogate escape, then a backslash as the header's last byte; the data starts with 'x'", "ST111")
    add("valid-escape-utf8-4-byte-edges",
        st_file('{"a":{%s},"__metadata__":{"k":"\\uffff\\ud800\\udc00\\udbff\\udfff"}}' % E, 1),
        "a __metadata__ value of \\uffff \\ud800\\udc00 \\udbff\\udfff: the last 3-byte code point, the first and "
        "the last 4-byte ones")
    # numbers at serde_json's range edge and cut after their sign
    add("valid-number-1e308-in-ignored-field", st_file('{"a":{%s,"x":1e308}}' % E, 1),
        "1e308 in an ignored entry field: the exponent 308 itself is in range (1 x 10^308 <= f64::MAX)",
        strict="ST504")
    add("valid-number-1e288-in-ignored-field", st_file('{"a":{%s,"x":1e288}}' % E, 1),
        "1e288 in an ignored entry field: the largest exponent below the range test's power table "
        "(10^289 to 10^308), in range", strict="ST504")
    add("ST111-minus-last-header-byte-metadata", st_file('{"a":{%s},"__metadata__":{"k":-' % E, b"1"),
        "the header's last byte is a minus sign as a __metadata__ value; the data starts with '1'", "ST111")
    add("ST111-minus-last-header-byte-ignored", st_file('{"a":{%s,"x":-' % E, b"x"),
        "the header's last byte is a minus sign in an ignored entry field; the data starts with 'x'", "ST111")
    # a number whose digits end with the header, one digit short of f64 overflow; the data adds one
    add("ST111-long-integer-last-header-bytes", st_file('{"a":{%s,"x":1%s' % (E, "0" * 308), b"0"),
        "the header ends with 10^308 written as 1 and 308 zeros (in range) in an ignored field; "
        "the data starts with '0'", "ST111")
    add("ST111-exponent-last-header-byte", st_file('{"a":{%s,"x":1e30' % E, b"9"),
        "the header ends with 1e30 in an ignored field; the data starts with '9' (1e309 would be out of range)",
        "ST111")
    # a negative zero with a digit after it: a syntax error (serde_json's number parser stops at the
    # leading zero), not the shape's or data_offsets' ST222 for a negative value
    add("ST110-leading-zero-negative-shape", st_file('{"a":{"dtype":"U8","shape":[-01],"data_offsets":[0,1]}}', 1),
        "shape [-01]: a leading zero after the minus sign (ST110 at the '1', not ST222 for -0)", "ST110")
    add("ST110-leading-zero-negative-offsets", st_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":[-01,1]}}', 1),
        "data_offsets [-01,1]: a leading zero after the minus sign (ST110 at the '1', not ST222 for -0)", "ST110")
    # the range test's edges: f64::MAX itself (in range), and an exponent of 289, the power table's
    # first, with the largest u64 significand (1.84e308: out of range)
    add("valid-number-f64-max-in-ignored-field", st_file('{"a":{%s,"x":1.7976931348623157e308}}' % E, 1),
        "1.7976931348623157e308 (f64::MAX) in an ignored entry field: in range", strict="ST504")
    add("ST117-number-u64-max-e289", st_file('{"a":{%s,"x":18446744073709551615e289}}' % E, 1),
        "18446744073709551615e289 (1.84e308) in an ignored entry field: out of f64's range at the power "
        "table's first exponent", "ST117")
    add("ST116-high-surrogate-then-u0000", st_file('{"a":{%s},"__metadata__":{"k":"\\ud800\\u0000"}}' % E, 1),
        "a high surrogate escape followed by \\u0000, a good escape that is no low surrogate (ST116, not ST115)",
        "ST116")
    # a high surrogate, then a backslash and a byte that is no 'u' as the header's last two bytes
    add("ST116-high-surrogate-then-backslash-x-last", st_file('{"a":{%s},"__metadata__":{"k":"\\ud800\\x' % E, b"u"),
        "a high surrogate escape, then \\x as the header's last two bytes (no low surrogate escape; "
        "the data starts with 'u')", "ST116")
    add("ST111-zero-last-header-byte", st_file('{"a":{%s,"x":0' % E, b"5"),
        "the header ends with the number 0 in an ignored field; the data starts with '5' (not a leading zero: "
        "the data is no part of the number)", "ST111")
    add("ST111-exponent-letter-last-header-byte", st_file('{"a":{%s,"x":1e' % E, b"x"),
        "the header ends with 1e (no exponent digit yet) in an ignored field; the data starts with 'x'", "ST111")
    # a negative exponent whose sum with the decimal point's shift is below i32::MIN: serde_json
    # saturates it (a tiny number, in range); a wrapped sum would be a huge exponent (ST117)
    add("valid-number-exponent-sum-below-i32-min", st_file('{"a":{%s,"x":1.25e-2147483647}}' % E, 1),
        "1.25e-2147483647 in an ignored entry field: -2 - 2147483647 is below i32::MIN, saturated, in range",
        strict="ST504")
    # the header ends where a key or the digits of an overflowing decimal go on; the data's first
    # byte would continue them (a reader that looks one byte past the header sees it)
    add("ST111-skipped-object-key-at-eof", st_file('{"a":{%s,"x":{' % E, b'"'),
        "the header ends right after '{' of an object in an ignored field, where a key would start; "
        "the data starts with '\"'", "ST111")
    add("ST111-skipped-object-key-after-comma-at-eof", st_file('{"a":{%s,"x":{"k":1,' % E, b'"'),
        "the header ends after a member and ',' of an object in an ignored field; the data starts with '\"'",
        "ST111")
    add("ST111-decimal-overflow-digits-last", st_file('{"a":{%s,"x":1.%s' % (E, "0" * 25), b"5"),
        "the header ends inside 25 decimals (past u64: the digits serde_json drops) in an ignored field; "
        "the data starts with '5'", "ST111")
    # the array form of an entry (serde's struct from a sequence; ST505 only in --strict) with each of
    # its three fields bad in turn: the field's own rule, as in the object form
    add("ST210-array-form-unknown-dtype", st_file('{"a":["X8",[1],[0,1]]}', 1),
        "an array-form entry whose dtype is unknown (X8)", "ST210")
    add("ST222-array-form-fractional-dim", st_file('{"a":["U8",[1.5],[0,1]]}', 1),
        "an array-form entry whose shape holds 1.5", "ST222")
    add("ST221-array-form-offsets-bool", st_file('{"a":["U8",[1],[0,true]]}', 1),
        "an array-form entry whose data_offsets end with true", "ST221")
    # a JSON error inside an array-form field is returned at once (rule and offset of the error, not
    # a syntax error where the next separator was due)
    add("ST115-array-form-dtype-bad-escape", st_file('{"a":["U\\q8",[1],[0,1]]}', 1),
        "an array-form entry whose dtype string holds the bad escape \\q", "ST115")
    # an escape letter that is no escape as the header's last byte: ST115 at the backslash, not the
    # end of the text (the letter is there)
    add("ST115-escape-letter-last-header-byte", st_file('{"a\\q', 1),
        "the header ends with a key's bad escape \\q (its letter the header's last byte)", "ST115")
    # 20 integer digits (u64::MAX), a decimal digit serde_json drops (parse_decimal_overflow), then
    # e289: the range test sees 18446744073709551615 x 10^289, out of range (a reader that keeps the
    # digit sees 10^288 and a wrapped significand, in range)
    add("ST117-decimal-overflow-dropped-digit-e289", st_file('{"a":{%s,"x":18446744073709551615.5e289}}' % E, 1),
        "18446744073709551615.5e289 in an ignored field: the dropped decimal digit leaves the exponent at 289",
        "ST117")
    # 21 integer digits (one past u64: the exponent starts at 1) and e2147483647 (i32::MAX, no
    # overflow of its own): the sum saturates at i32::MAX, out of range (wrapped, it would be in range)
    add("ST117-long-integer-exponent-sum-past-i32-max",
        st_file('{"a":{%s,"x":184467440737095516150e2147483647}}' % E, 1),
        "184467440737095516150e2147483647 in an ignored field: 1 + i32::MAX saturates (serde_json), ST117",
        "ST117")
    # a literal cut short where the next byte closes the object: the literal's error, not a value
    add("ST110-false-cut-in-ignored-field", st_file('{"a":{%s,"x":fals}}' % E, 1),
        "fals} in an ignored field: the literal false cut by '}'", "ST110")
