#!/usr/bin/python3
"""Helpers of tests/fwci/run.sh for JUnit files (python3-lxml):

  validate XSD FILE...      every FILE is valid against XSD (one line per file)
  canon FILE                the file without time attributes, as canonical XML (C14N)
  counts FILE               "tests failures errors skipped" of the <testsuites>
  cases FILE                one line per testcase: name status (pass fail error skip)
  text FILE NAME ELEMENT    text of ELEMENT (failure, error, system-out, ...) of testcase NAME
  consistent FILE           the count attributes agree with the testcases
"""
import sys

from lxml import etree


def status(tc):
    for tag, st in (("failure", "fail"), ("error", "error"), ("skipped", "skip")):
        if tc.find(tag) is not None:
            return st
    return "pass"


def main(argv):
    cmd = argv[0]
    if cmd == "validate":
        schema = etree.XMLSchema(etree.parse(argv[1]))
        bad = 0
        for f in argv[2:]:
            try:
                doc = etree.parse(f)
            except etree.XMLSyntaxError as e:
                print("%s: not well-formed XML: %s" % (f, e))
                bad += 1
                continue
            if schema.validate(doc):
                print("%s: valid" % f)
            else:
                bad += 1
                print("%s: invalid: %s" % (f, schema.error_log.last_error))
        return 1 if bad else 0
    root = etree.parse(argv[1]).getroot()
    if cmd == "canon":
        for e in root.iter():
            e.attrib.pop("time", None)
        for e in root.iter():       # indentation only
            if e.tail is not None and not e.tail.strip():
                e.tail = None
            if len(e) and e.text is not None and not e.text.strip():
                e.text = None
        sys.stdout.write(etree.tostring(root, method="c14n").decode())
    elif cmd == "counts":
        print(root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped"))
    elif cmd == "cases":
        for tc in root.iter("testcase"):
            print(tc.get("name"), status(tc))
    elif cmd == "text":
        for tc in root.iter("testcase"):
            if tc.get("name") == argv[2]:
                e = tc.find(argv[3])
                if e is not None:
                    sys.stdout.write(e.text or "")
                    if argv[3] in ("failure", "error", "skipped"):
                        sys.stdout.write("message: %s\n" % e.get("message"))
    elif cmd == "consistent":
        ok = True
        for ts in [root] + root.findall("testsuite"):
            cases = list(ts.iter("testcase"))
            want = {"tests": len(cases)}
            for k, st in (("failures", "fail"), ("errors", "error"), ("skipped", "skip")):
                want[k] = sum(1 for c in cases if status(c) == st)
            for k, v in want.items():
                if ts.get(k) != str(v):
                    print("%s %s=%s but %d testcases" % (ts.tag, k, ts.get(k), v))
                    ok = False
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
