"""One line per surviving mutant: module.function  L<line>  -old  +new (whitespace-squeezed).
Run from the mutmut project root (the folder holding mutants/), after `mutmut run`.
Usage: python survivors.py [glob-of-mutant-names] [--status survived]"""
import fnmatch, re, subprocess, sys, shutil
from pathlib import Path

pat = sys.argv[1] if len(sys.argv) > 1 else "*"
status = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--status" else "survived"
mutmut = shutil.which("mutmut") or str(Path(sys.executable).with_name("mutmut"))
res = subprocess.run([mutmut, "results", "--all", "true"], capture_output=True, text=True).stdout
names = [l.split(": ")[0].strip() for l in res.splitlines() if l.strip().endswith(": " + status)]
names = [n for n in names if fnmatch.fnmatch(n, pat)]
def func_name(n):
    f = n.split(".")[-1].rsplit("__mutmut_", 1)[0]
    return re.sub(r"^x_|^xǁ", "", f).replace("ǁ", ".")


def span(text, qual):
    import ast
    tree = ast.parse(text)
    parts = qual.split(".")
    nodes = tree.body
    node = None
    for p in parts:
        node = next((x for x in nodes if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and x.name == p), None)
        if node is None:
            return 1, 10**9
        nodes = node.body
    return node.lineno, node.end_lineno


sq = lambda s: re.sub(r"\s+", " ", s.strip())
for n in names:
    for _ in range(3):   # `show` can come back empty while another mutmut run writes the meta files
        out = subprocess.run([mutmut, "show", n], capture_output=True, text=True).stdout
        if "\n-" in out:
            break
    path = next((l[4:].strip() for l in out.splitlines() if l.startswith("--- ")), None)
    minus = [l[1:] for l in out.splitlines() if l.startswith("-") and not l.startswith("---")]
    plus = [l[1:] for l in out.splitlines() if l.startswith("+") and not l.startswith("+++")]
    line = "?"
    if path and minus:
        text = Path(path).read_text()
        src = text.splitlines()
        lo, hi = span(text, func_name(n))
        hits = [i + 1 for i, s in enumerate(src) if lo <= i + 1 <= hi and s.strip() == minus[0].strip()]
        line = ",".join(map(str, hits[:3])) if hits else "?"
    func = func_name(n) + "#" + n.rsplit("__mutmut_", 1)[1]
    mod = ".".join(n.split(".")[:-1])
    print(f"{mod}:{func}  L{line}  -{sq(' / '.join(minus))}  +{sq(' / '.join(plus))}")
