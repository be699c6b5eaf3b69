"""Differential tester of the CPU pipeline: random valid tp programs
(difftest_gen.py), compiled and run by tp-run, every output compared with an
independent NumPy evaluation of the same program (difftest_core.py).

  difftest.py --tp-run PATH [--tp-opt PATH] [--seed S]
              [--programs N | --minutes M] [--steps A:B] [--batch B]
              [--modes m1,m2] [--keep DIR] [--no-minimize] [--no-pinned]
              [--check FILE.mlir ...] [--only SEED:INDEX] [--mutate]
              [--stats] [--tmp DIR]

Prints one line per failing program (MISMATCH/CRASH/INVALID: seed,
program, mode, output, error), then
  "N programs, M mismatched (a mismatches, c failed to compile or run,
   i invalid; ...)"
and, when known findings (difftest-findings/ files marked expect=fail, and
generated programs failing as they do) still fail, "K known findings still
failing (not counted as passing): ...". Exit status 1 on any other
mismatch, failure or invalid program.

Programs of one mode are compiled together, one module of --batch functions
per tp-run call (JIT compilation per process dominates the time). A failing
program is minimised (results dropped, ops cut into arguments or bypassed
while it still fails) and, with --keep DIR, written out with its inputs and
the command that reproduces it. The pinned findings
(Inputs/difftest-findings/*.mlir, see their header comments) always run.
See docs/Testing.md, "Differential testing".
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from difftest_core import (Arg, Evaluator, NP_DTYPE, Program, Reject,  # noqa: E402
                           compare, emit_function, is_float, parse_module,
                           round_to)
from difftest_gen import dce, gen_program, mode_of  # noqa: E402

FINDINGS = os.path.join(HERE, "difftest-findings")


# ----------------------------------------------------------------------------
# Running programs.

class Outcome:
    def __init__(self, prog, status, lines=(), worst=0.0):
        self.prog = prog
        self.status = status      # "pass" | "mismatch" | "crash" | "invalid"
        self.lines = list(lines)
        self.worst = worst


def mode_flags(mode):
    cmd = []
    if mode["autocast"]:
        cmd.append("--autocast=cpu:bf16")
        if mode["keep_io"]:
            cmd.append("--autocast-keep-io-types")
    if mode["options"]:
        cmd.append("--pipeline-options=" + mode["options"])
    return cmd


def module_text(progs, ranges=None):
    parts, where, line = [], {}, 1
    for p in progs:
        text, w = emit_function(p, line)
        parts.append(text)
        where[p.name] = w
        n = text.count("\n") + 1
        if ranges is not None:
            ranges[p.name] = (line, line + n - 1)
        line += n + 1
    return "\n\n".join(parts) + "\n", where


ERR_LOC = re.compile(r"module\.mlir:(\d+):\d+: error")


def own_error(p, ranges, text):
    """The error lines of `text` inside p's function, with the line that
    follows each (the op), relative to the function."""
    lo, hi = ranges[p.name]
    lines = (text or "").splitlines()
    out = []
    for i, l in enumerate(lines):
        m = ERR_LOC.search(l)
        if m and lo <= int(m.group(1)) <= hi:
            msg = l[m.end():].strip(": ")
            op = lines[i + 1].strip() if i + 1 < len(lines) else ""
            out.append("line %d: error: %s [%s]" % (int(m.group(1)) - lo + 1, msg, op))
    tail = [l for l in lines if l.startswith("tp-run:")]
    return "tp-run failed: " + " | ".join(out + tail[-1:])


def culprits(progs, ranges, text):
    """The programs error messages point into (by their lines)."""
    out = []
    for m in ERR_LOC.finditer(text or ""):
        line = int(m.group(1))
        for p in progs:
            lo, hi = ranges[p.name]
            if lo <= line <= hi and p not in out:
                out.append(p)
    return out


def write_inputs(p, d):
    for i, a in enumerate(p.args):
        x = p.data[a.name]
        np.save(os.path.join(d, "%s.arg%d.npy" % (p.name, i)),
                np.asarray(x).astype(NP_DTYPE[a.dt]))


class Runner:
    def __init__(self, args):
        self.tp_run = args.tp_run
        self.tp_opt = args.tp_opt or os.path.join(os.path.dirname(args.tp_run), "tp-opt")
        self.tmp = args.tmp
        self.verbose = args.verbose
        self.timeout = args.timeout
        self.calls = 0
        self.model_checks = 0
        self.tp_time = 0.0

    def run_tp(self, cmd):
        t0 = time.time()
        try:
            return self._run_tp(cmd)
        finally:
            self.tp_time += time.time() - t0

    def _run_tp(self, cmd):
        """Runs a tool; waits (up to two minutes) while the binary is missing
        or being relinked."""
        deadline = time.time() + 120
        while True:
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=self.timeout)
            except subprocess.TimeoutExpired:
                return 124, "", "timed out after %ds" % self.timeout
            except OSError as exc:   # missing, or being relinked
                if time.time() > deadline:
                    return 127, "", str(exc)
                time.sleep(3)
                continue
            if proc.returncode in (126, 127) and time.time() < deadline:
                time.sleep(3)
                continue
            return proc.returncode, proc.stdout, proc.stderr

    def run_module(self, progs, mode, tag):
        """Runs `progs` (one mode) in one tp-run call; returns {name: outputs
        list or None} and the failure text, if any."""
        d = os.path.join(self.tmp, tag)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        self.ranges = {}
        text, where = module_text(progs, self.ranges)
        path = os.path.join(d, "module.mlir")
        with open(path, "w") as f:
            f.write(text)
        for p in progs:
            write_inputs(p, d)
        cmd = [self.tp_run, path, "--npy-dir", d] + mode_flags(mode)
        self.calls += 1
        rc, out, err = self.run_tp(cmd)
        outs = {}
        for p in progs:
            files = [os.path.join(d, "%s.out%d.npy" % (p.name, k)) for k in range(len(p.results))]
            if rc == 0 and all(os.path.exists(f) for f in files):
                outs[p.name] = [np.load(f) for f in files]
            else:
                outs[p.name] = None
        fail = None if rc == 0 else "tp-run exit %d: %s" % (rc, (err or out).strip()[-1500:])
        return outs, fail, path, where

    def verify(self, progs, tag):
        """tp-opt's verdict on the module (None: it verifies)."""
        d = os.path.join(self.tmp, tag)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "verify.mlir")
        with open(path, "w") as f:
            f.write(module_text(progs)[0])
        rc, out, err = self.run_tp([self.tp_opt, path, "-o", os.devnull])
        return None if rc == 0 else (err or out).strip()[-1500:]

    def autocast_report(self, progs, tag):
        d = os.path.join(self.tmp, tag)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "report.mlir")
        text, where = module_text(progs)
        with open(path, "w") as f:
            f.write(text)
        rep = os.path.join(d, "report.json")
        rc, out, err = self.run_tp([self.tp_opt, "--autocast=cpu:bf16",
                                    "--autocast-report=" + rep, path, "-o", os.devnull])
        if rc != 0:
            return None, where
        with open(rep) as f:
            return json.load(f), where


def evaluate(p, quirks=()):
    ev = Evaluator(p.mode["autocast"], p.mode["keep_io"])
    import difftest_core
    difftest_core.ACTIVE_QUIRKS.clear()
    difftest_core.ACTIVE_QUIRKS.update(quirks)
    try:
        env = ev.run(p)
    finally:
        difftest_core.ACTIVE_QUIRKS.clear()
    return ev, env


def check_outputs(p, outs, quirks=()):
    """Compares every output; returns (ok, lines, worst ratio)."""
    ev, env = evaluate(p, quirks)
    for r in p.results:
        if not np.all(np.isfinite(env[r].e)):
            return False, ["result %%%s: the reference has no finite bound (an op outside "
                           "its domain): not a valid test" % r], 0.0
    lines, ok, worst = [], True, 0.0
    for k, r in enumerate(p.results):
        x = ev.result(p, env, r)
        want = np.dtype(NP_DTYPE[x.dt])
        if outs[k].dtype != want:
            ok = False
            lines.append("result #%d (%%%s): written as %s, the model's dtype is %s"
                         % (k, r, outs[k].dtype, x.dt))
            continue
        good, msg, _, w = compare(outs[k], x, x.dt)
        worst = max(worst, w)
        if good:
            prod = [n.op for n in p.nodes if n.res == r]
            key = (x.dt, prod[0] if prod else "argument", p.mode["autocast"])
            RATIOS[key] = max(RATIOS.get(key, (0, ""))[0], w), p.name
        if not good:
            ok = False
            lines.append("result #%d (%%%s, %s): %s" % (k, r, x.dt, msg))
    return ok, lines, worst


RATIOS = {}   # (dtype, producing op, autocast) -> (worst error / bound, program)
MUTANTS = ("other-value", "scale-1.1", "scale-1.02", "one-element+0.1max",
           "one-element*1.1", "one-element*1.03")
MUTATION = {}   # (mutant, dtype) -> [tried, detected]


def mutate(p, outs):
    """Self-test of the comparison (--mutate): corrupts each output of a
    passing program as a wrong buffer or a wrong op would, and counts how
    often compare() notices."""
    ev, env = evaluate(p)
    rng = np.random.default_rng(len(p.nodes) * 7919 + len(p.results))
    for k, r in enumerate(p.results):
        x = ev.result(p, env, r)
        if not is_float(x.dt) or x.v.size == 0 or not np.any(x.v != 0):
            continue
        ref = x.v
        mx = float(np.max(np.abs(ref)))
        cands = []
        others = [n.res for n in p.nodes if n.res != r and env[n.res].shape == ref.shape
                  and is_float(env[n.res].dt) and np.any(env[n.res].v != ref)]
        if others:
            o = env[others[int(rng.integers(len(others)))]].v
            cands.append(("other-value", o))
        cands.append(("scale-1.1", ref * 1.1))
        i = int(rng.integers(ref.size))
        m = ref.copy().reshape(-1)
        m[i] += 0.1 * mx
        cands.append(("one-element+0.1max", m.reshape(ref.shape)))
        j = int(np.argmax(np.abs(ref).reshape(-1) * rng.uniform(0.5, 1.0, ref.size)))
        m = ref.copy().reshape(-1)
        m[j] *= 1.1
        cands.append(("one-element*1.1", m.reshape(ref.shape)))
        cands.append(("scale-1.02", ref * 1.02))
        m = ref.copy().reshape(-1)
        m[j] *= 1.03
        cands.append(("one-element*1.03", m.reshape(ref.shape)))
        for name, val in cands:
            val = round_to(x.dt, val)
            if np.array_equal(val, ref):
                continue
            good = compare(val.astype(np.float32), x, x.dt)[0]
            c = MUTATION.setdefault((name, x.dt), [0, 0])
            c[0] += 1
            c[1] += not good


def valid_reference(p):
    """The program evaluates to finite references (a candidate of the
    minimiser may leave an op's domain)."""
    try:
        ev, env = evaluate(p)
    except (Reject, ValueError, IndexError):
        return False
    for r in p.results:
        x = env[r]
        with np.errstate(all="ignore"):
            if not (np.all(np.isfinite(x.v)) and np.all(np.isfinite(x.e))):
                return False
            if is_float(x.dt) and x.v.size:
                mx = float(np.max(np.abs(x.v)))
                if float(np.max(x.e)) > 0.05 * max(mx, 1e-3):
                    return False
    return True


def run_batch(runner, progs, mode, tag, stats):
    """Runs progs of one mode; returns a list of Outcome."""
    outs, fail, path, where = runner.run_module(progs, mode, tag)
    results = []
    if fail is not None:
        bad = runner.verify(progs, tag)
        if bad is not None:
            # Find the invalid programs one by one.
            for p in progs:
                msg = runner.verify([p], tag + "_v")
                if msg is not None:
                    results.append(Outcome(p, "invalid", ["tp-opt rejects it: " + msg]))
            good = [p for p in progs if p not in [o.prog for o in results]]
            if good and len(good) < len(progs):
                results += run_batch(runner, good, mode, tag + "b", stats)
            return results
        if len(progs) == 1:
            mine = own_error(progs[0], runner.ranges, fail)
            return [Outcome(progs[0], "crash", [mine if "line" in mine else fail])]
        guilty = culprits(progs, runner.ranges, fail)
        if guilty:
            rest = [p for p in progs if p not in guilty]
            return ([Outcome(g, "crash", [own_error(g, runner.ranges, fail)]) for g in guilty]
                    + (run_batch(runner, rest, mode, tag + "x", stats) if rest else []))
        half = len(progs) // 2
        return (run_batch(runner, progs[:half], mode, tag + "l", stats)
                + run_batch(runner, progs[half:], mode, tag + "r", stats))
    for p in progs:
        o = outs[p.name]
        if o is None:
            results.append(Outcome(p, "crash", ["no outputs"]))
            continue
        ok, lines, worst = check_outputs(p, o)
        results.append(Outcome(p, "pass" if ok else "mismatch", lines, worst))
        if not ok:
            for q, finding in stats.get("quirks", {}).items():
                try:
                    if check_outputs(p, o, (q,))[0]:
                        results[-1].explained = finding
                        break
                except Reject:
                    pass
        if ok and stats.get("mutate"):
            mutate(p, o)
    if mode["autocast"]:
        results = check_autocast_model(runner, progs, tag, results)
    return results


def run_expect_error(runner, p):
    """A pinned program whose correct outcome is a diagnostic."""
    outs, fail, path, where = runner.run_module([p], p.mode, "pinned_err_" + p.name)
    if fail is None:
        return Outcome(p, "mismatch", ["compiled and ran; expected an error matching %r" % p.expect_error])
    mine = own_error(p, runner.ranges, fail)
    if "lowering to the CPU failed" in fail or not re.search(p.expect_error, fail):
        return Outcome(p, "crash", ["expected an error matching %r before lowering, got: %s"
                                    % (p.expect_error, mine if "line" in mine else fail)])
    return Outcome(p, "pass", [])


def check_autocast_model(runner, progs, tag, results):
    """Compares the evaluator's autocast model with tp-opt's report."""
    rep, where = runner.autocast_report(progs, tag)
    if rep is None:
        return results
    runner.model_checks += 1
    byline = {}
    for p in progs:
        for res, line in where[p.name].items():
            byline[line] = (p, res)
    evs = {}
    extra = {}
    for op in rep["ops"]:
        line = int(op["location"].split(":")[-2])
        if line not in byline:
            continue
        p, res = byline[line]
        if p.name not in evs:
            evs[p.name] = evaluate(p)[0]
        lst, dt, runs_in = evs[p.name].decisions[res]
        lst = {"fp32-dtype": "fp32"}.get(lst, lst)
        if op["dtype"] not in runs_in or op["list"] != lst:
            extra.setdefault(p.name, []).append(
                "autocast decision of %%%s (%s, line %d): report says %s/%s, the model %s/%s"
                % (res, op["op"], line, op["list"], op["dtype"], lst, dt))
    for o in results:
        if o.prog.name in extra:
            o.lines += extra[o.prog.name]
            if o.status == "pass":
                o.status = "mismatch"
    return results


# ----------------------------------------------------------------------------
# Minimisation.

def variants(p):
    """Programs one step smaller than p."""
    out = []
    if len(p.results) > 1:
        for k in range(len(p.results)):
            q = Program(p.name, p.args, p.nodes, [p.results[k]], p.mode, p.seed)
            q.data = p.data
            out.append(dce(q))
    types = p.types()
    try:
        ev, env = evaluate(p)
    except Reject:
        return out
    for i in range(len(p.nodes) - 1, -1, -1):
        n = p.nodes[i]
        # Cut: the node's value becomes an argument.
        j = i
        while "c%d" % j in types:
            j += 1000
        name = "c%d" % j
        a = Arg(name, n.shape, n.dt, ("data",))
        val = round_to(n.dt, env[n.res].v) if is_float(n.dt) else env[n.res].v
        nodes = [m.copy() for m in p.nodes if m is not n]
        for m in nodes:
            m.args = [name if x == n.res else x for x in m.args]
            m.kw = {k: (name if v == n.res else v) for k, v in m.kw.items()}
        res = [name if r == n.res else r for r in p.results]
        q = Program(p.name, p.args + [a], nodes, res, p.mode, p.seed)
        q.data = dict(p.data)
        q.data[name] = np.asarray(val).astype(NP_DTYPE[n.dt])
        if all(r != name for r in q.results) or len(q.nodes) > 0:
            out.append(dce(q))
        # Bypass: the node's uses read one of its operands instead.
        for o in n.operands():
            if types[o] == (n.shape, n.dt):
                nodes = [m.copy() for m in p.nodes if m is not n]
                for m in nodes:
                    m.args = [o if x == n.res else x for x in m.args]
                    m.kw = {k: (o if v == n.res else v) for k, v in m.kw.items()}
                res = [o if r == n.res else r for r in p.results]
                q = Program(p.name, p.args, nodes, res, p.mode, p.seed)
                q.data = p.data
                out.append(dce(q))
    return [q for q in out if q.nodes and valid_reference(q)]


def size(p):
    return (len(p.nodes), len(p.results), sum(int(np.prod(a.shape)) for a in p.args))


def rename(p, name):
    q = Program(name, p.args, p.nodes, p.results, p.mode, p.seed)
    q.data = p.data
    return q


def minimize(runner, p, status, budget=12):
    """Greedy: each round runs every one-step-smaller variant (in one module
    for mismatches; one by one for crashes) and keeps the smallest that
    still fails the same way."""
    cur = p
    for rnd in range(budget):
        cands = sorted(variants(cur), key=size)
        if not cands:
            break
        cands = cands[:60]
        found = None
        if status == "mismatch":
            named = [rename(q, "%s_m%d" % (p.name, j)) for j, q in enumerate(cands)]
            res = run_batch(runner, named, cur.mode, "min", {})
            fails = [o.prog for o in res if o.status == "mismatch"]
            if fails:
                found = min(fails, key=size)
        else:
            for j, q in enumerate(cands[:25]):
                named = rename(q, "%s_m%d" % (p.name, j))
                res = run_batch(runner, [named], cur.mode, "min", {})
                if res and res[0].status == "crash":
                    found = named
                    break
        if found is None or size(found) >= size(cur):
            break
        cur = rename(found, p.name)
    return cur


# ----------------------------------------------------------------------------
# Reproducers and pinned findings.

def init_spec(a):
    if a.init[0] == "u":
        return "u:%r:%r" % (a.init[1], a.init[2])
    if a.init[0] == "int":
        return "int:%d:%d" % (a.init[1], a.init[2])
    return a.init[0]


def header(p, status, lines, path, inputs, tp_run):
    h = ["// difftest %s: %s, program %s" % (status, p.mode["key"], p.name)]
    for l in lines:
        h.append("// " + l)
    h.append("// Reproduce (compares with the reference):")
    h.append("//   %s %s --tp-run %s --check %s" % (sys.executable, os.path.abspath(__file__),
                                                 tp_run, path))
    h.append("// or run it (the inputs are the .npy files of %s/):" % inputs)
    h.append("//   %s %s --npy-dir %s %s" % (tp_run, path, inputs, " ".join(mode_flags(p.mode))))
    h.append("// difftest: mode=%s inputs=%s" % (p.mode["key"], os.path.basename(inputs)))
    return "\n".join(h) + "\n"


def write_repro(runner, keep, p, status, lines, suffix=""):
    os.makedirs(keep, exist_ok=True)
    d = os.path.join(keep, p.name + suffix)
    os.makedirs(d, exist_ok=True)
    text = module_text([p])[0]
    path = os.path.join(keep, p.name + suffix + ".mlir")
    with open(path, "w") as f:
        f.write(header(p, status, lines, path, d, runner.tp_run) + text)
    write_inputs(p, d)
    with open(os.path.join(d, "command.sh"), "w") as f:
        f.write("%s %s --npy-dir %s %s\n" % (runner.tp_run, path, d,
                                            " ".join("'%s'" % c for c in mode_flags(p.mode))))
    return path


def load_pinned(path):
    """A findings file: MLIR of one or more functions in emit_function's
    form. `// difftest: key=value ...` lines set, for the functions that
    follow them, the mode (mode=KEY, a key of difftest_gen.MODES), the inputs
    (inputs-seed=N; args=SPEC,SPEC,... with SPEC u:LO:HI (uniform, the
    default u:-1:1), i1 or int:LO:HI; or inputs=DIR of .npy files, relative
    to the file), expect=fail (a known finding still
    failing) and error=REGEX (the correct outcome is a compile error
    matching REGEX, reported by the verifier or autocast, not a failure of
    the lowering); `// difftest-signature: REGEX` names the error of a known
    finding, so that generated programs failing with it count as that
    finding."""
    with open(path) as f:
        text = f.read()
    meta = {}
    sigs = []
    quirks = []
    per_func = []
    for line in text.splitlines():
        if line.startswith("// difftest-quirk:"):
            quirks.append(line[len("// difftest-quirk:"):].split()[0])
        if line.startswith("// difftest-signature:"):
            sigs.append(line[len("// difftest-signature:"):].strip())
        if line.startswith("// difftest:"):
            for kv in line[len("// difftest:"):].split():
                if "=" in kv:
                    k, v = kv.split("=", 1)
                    meta[k] = v
        if line.startswith("func.func"):
            per_func.append(dict(meta))
    progs = []
    for fi, (name, args, nodes, results) in enumerate(parse_module(text)):
        meta = per_func[fi]
        specs = meta.get("args", "").split(",") if meta.get("args") else []
        al = []
        for i, (an, shape, dt) in enumerate(args):
            spec = specs[i] if i < len(specs) else ("i1" if dt == "i1" else "u:-1:1")
            parts = spec.split(":")
            if parts[0] == "u":
                init = ("u", float(parts[1]), float(parts[2]))
            elif parts[0] == "int":
                init = ("int", int(parts[1]), int(parts[2]))
            else:
                init = ("i1",)
            al.append(Arg(an, shape, dt, init))
        p = Program(name, al, nodes, results, mode_of(meta.get("mode", "plain")),
                    int(meta.get("inputs-seed", "1")) + fi)
        p.make_inputs()
        if "inputs" in meta:   # .npy files written by --keep
            d = os.path.join(os.path.dirname(os.path.abspath(path)), meta["inputs"])
            for i, a in enumerate(al):
                f = os.path.join(d, "%s.arg%d.npy" % (name, i))
                if os.path.exists(f):
                    p.data[a.name] = np.load(f)
        p.expect_fail = meta.get("expect") == "fail"
        p.expect_error = meta.get("error")
        p.signatures = sigs
        p.quirks = quirks
        p.source = path
        progs.append(p)
    return progs


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tp-run", required=True)
    ap.add_argument("--tp-opt", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=300)
    ap.add_argument("--minutes", type=float, default=None,
                    help="run chunks of programs until this much time has passed")
    ap.add_argument("--batch", type=int, default=40, help="programs per tp-run call")
    ap.add_argument("--modes", default=None, help="comma-separated modes (default: all, drawn per program)")
    ap.add_argument("--keep", default=None, help="write failing programs (and minimised ones) here")
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--pinned", dest="pinned", action="store_true", default=True)
    ap.add_argument("--no-pinned", dest="pinned", action="store_false")
    ap.add_argument("--check", nargs="*", default=None, help="run these findings files only")
    ap.add_argument("--only", default=None, help="SEED:INDEX of one generated program")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--steps", default="3:12",
                    help="A:B, the range of op families drawn per program (each adds 1-5 ops)")
    ap.add_argument("--stats", action="store_true", help="print per-mode counts and tolerance use")
    ap.add_argument("--mutate", action="store_true",
                    help="self-test: corrupt the outputs of passing programs and count how many the comparison catches")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    own_tmp = args.tmp is None
    if own_tmp:
        args.tmp = tempfile.mkdtemp(prefix="difftest.")
    else:
        os.makedirs(args.tmp, exist_ok=True)
    runner = Runner(args)
    t0 = time.time()
    counts = {"pass": 0, "mismatch": 0, "crash": 0, "invalid": 0}
    per_mode = {}
    known = []
    known_generated = []
    signatures = []
    quirks = {}
    fixed = []
    worst = {}
    failures = []

    def report(outcomes, label):
        """Prints and counts; returns the new failures (not known ones)."""
        new = []
        for o in outcomes:
            pm = per_mode.setdefault(o.prog.mode["key"], [0, 0])
            pm[0] += 1
            expect = getattr(o.prog, "expect_fail", False)
            if o.status == "pass":
                counts["pass"] += 1
                worst[o.prog.mode["key"]] = max(worst.get(o.prog.mode["key"], 0), o.worst)
                if expect:
                    fixed.append(o.prog)
                    print("FIXED? %s (%s): a known finding passes now; drop its expect=fail"
                          % (o.prog.source, o.prog.name))
                if args.verbose:
                    print("pass %s %s (%.2f of the bound)" % (o.prog.name, o.prog.mode["key"], o.worst))
                continue
            if expect:
                known.append((o.prog, o))
                print("KNOWN %s %s (%s): %s" % (o.status.upper(), os.path.basename(o.prog.source),
                                                o.prog.mode["key"], o.lines[0] if o.lines else ""))
                continue
            text = " ".join(o.lines)
            match = [f for f, sig in signatures if re.search(sig, text)]
            if getattr(o, "explained", None):
                match = [o.explained]
            if match:
                known_generated.append((o.prog, match[0]))
                print("KNOWN %s %s mode=%s: matches %s" % (o.status.upper(), label(o.prog),
                                                           o.prog.mode["key"], os.path.basename(match[0])))
                continue
            pm[1] += 1
            counts[o.status] += 1
            failures.append(o)
            new.append(o)
            print("%s %s mode=%s (%s): %s" % (o.status.upper(), label(o.prog), o.prog.mode["key"],
                                               "%d ops" % len(o.prog.nodes), "; ".join(o.lines)))
            sys.stdout.flush()
        return new

    def gen_label(p):
        s, i = p.name[1:].split("_")[:2]
        return "seed=%s program=%s" % (s, i)

    # Pinned findings first (always run, unless --no-pinned).
    pinned_files = args.check if args.check is not None else (
        sorted(glob.glob(os.path.join(FINDINGS, "*.mlir"))) if args.pinned and not args.only else [])
    pinned = []
    for f in pinned_files:
        pinned += load_pinned(f)
    for f in sorted(glob.glob(os.path.join(FINDINGS, "*.mlir"))) + list(args.check or []):
        for p in load_pinned(f):
            if p.expect_fail:
                signatures += [(f, sig) for sig in p.signatures]
                for q in p.quirks:
                    quirks[q] = f
    by_mode = {}
    for p in pinned:
        if p.expect_error:
            report([run_expect_error(runner, p)], lambda p: "%s (%s)" % (os.path.relpath(p.source), p.name))
            continue
        by_mode.setdefault(p.mode["key"], []).append(p)
    for key, ps in sorted(by_mode.items()):
        for j in range(0, len(ps), args.batch):
            report(run_batch(runner, ps[j:j + args.batch], ps[0].mode, "pinned_%s_%d" % (key.replace("+", "_"), j), {}),
                   lambda p: "%s (%s)" % (os.path.relpath(p.source), p.name))
    n_pinned = len(pinned)
    if args.check is not None:
        if args.keep:
            for p in pinned:
                write_repro(runner, args.keep, p, "check", [])
        print_summary(counts, n_pinned, 0, known, known_generated, t0, runner, per_mode, worst, args)
        return 1 if counts["mismatch"] + counts["crash"] + counts["invalid"] else 0

    modes = args.modes.split(",") if args.modes else None
    steps = tuple(int(v) for v in args.steps.split(":"))
    if args.only:
        s, i = (int(v) for v in args.only.split(":"))
        plan = [(s, i)]
    else:
        plan = None
    generated = 0
    index = 0
    chunk = max(args.batch * 4, 100)
    while True:
        if plan is not None:
            todo = plan if generated == 0 else []
        elif args.minutes is not None:
            if time.time() - t0 > args.minutes * 60:
                break
            todo = [(args.seed, index + j) for j in range(chunk)]
        else:
            left = args.programs - index
            todo = [(args.seed, index + j) for j in range(min(chunk, left))]
        if not todo:
            break
        index += len(todo)
        progs = []
        for s, i in todo:
            mk = modes[i % len(modes)] if modes else None
            p = gen_program(s, i, mk, steps=steps)
            progs.append(p)
        generated += len(progs)
        groups = {}
        for p in progs:
            groups.setdefault(p.mode["key"], []).append(p)
        for key in sorted(groups):
            ps = groups[key]
            for j in range(0, len(ps), args.batch):
                outcomes = run_batch(runner, ps[j:j + args.batch], ps[0].mode,
                                     "%s_%d_%d" % (key.replace("+", "_"), index, j),
                                     {"mutate": args.mutate, "quirks": quirks})
                for o in report(outcomes, gen_label):
                    if o.status in ("mismatch", "crash") and not args.no_minimize:
                        m = minimize(runner, o.prog, o.status)
                        ok = run_batch(runner, [m], m.mode, "final", {})
                        lines = ok[0].lines if ok else []
                        print("  minimised to %d ops, %d results: %s" % (
                            len(m.nodes), len(m.results), "; ".join(lines)))
                        print("  " + module_text([m])[0].replace("\n", "\n  ").rstrip())
                        if args.keep:
                            write_repro(runner, args.keep, o.prog, o.status, o.lines)
                            path = write_repro(runner, args.keep, m, o.status, lines, ".min")
                            print("  written: %s" % path)
                    elif o.status in ("mismatch", "crash", "invalid") and args.keep:
                        write_repro(runner, args.keep, o.prog, o.status, o.lines)
    print_summary(counts, n_pinned, generated, known, known_generated, t0, runner, per_mode, worst, args)
    if own_tmp:
        shutil.rmtree(args.tmp, ignore_errors=True)
    return 1 if counts["mismatch"] + counts["crash"] + counts["invalid"] else 0


def print_summary(counts, n_pinned, generated, known, known_generated, t0, runner, per_mode, worst, args):
    dt = time.time() - t0
    total = generated + n_pinned - len(known) - len(known_generated)
    bad = counts["mismatch"] + counts["crash"] + counts["invalid"]
    if args.stats:
        for k in sorted(per_mode):
            print("mode %-16s %5d programs, %d failed, worst error %.2f of the bound"
                  % (k, per_mode[k][0], per_mode[k][1], worst.get(k, 0)))
    print("%d programs, %d mismatched (%d mismatches, %d failed to compile or run, "
          "%d invalid; %d generated, %d pinned; %d tp-run calls, %.1f s (%.1f s in tp-run/tp-opt), %.0f ms per program)"
          % (total, bad, counts["mismatch"], counts["crash"], counts["invalid"],
             generated - len(known_generated), n_pinned - len(known), runner.calls, dt, runner.tp_time,
             1000 * dt / max(generated + n_pinned, 1)))
    if args.stats and RATIOS:
        top = sorted(RATIOS.items(), key=lambda kv: -kv[1][0])[:12]
        print("largest error / bound of passing outputs: " + ", ".join(
            "%s %s%s %.2f (%s)" % (dt, op, " autocast" if ac else "", w, nm)
            for (dt, op, ac), (w, nm) in top))
    if MUTATION:
        for (name, dt), (n, d) in sorted(MUTATION.items()):
            print("mutation %-20s %-5s %5d corrupted outputs, %5d detected (%.1f%%)"
                  % (name, dt, n, d, 100.0 * d / max(n, 1)))
    if known or known_generated:
        names = sorted(set(os.path.basename(p.source) for p, _ in known)
                       | set(os.path.basename(f) for _, f in known_generated))
        print("%d known findings still failing (not counted as passing): %d pinned cases, "
              "%d generated programs failing as they do; %s"
              % (len(names), len(known), len(known_generated), ", ".join(names)))


if __name__ == "__main__":
    sys.exit(main())
