"""One rank of the data-parallel tests (test_distributed.py): tensorplay's
DistributedDataParallel over the gloo process group around a model whose
forward (and backward) tensorplay.compile(backend="mlir") compiles, trained
with tensorplay's optimizers and GradScaler. Spawned once per rank; writes
what it saw to OUT/<scenario>.rank<r>.npz."""

import copy
import datetime
import os

import numpy as np
import tensorplay
import tensorplay.distributed as dist
import tensorplay.nn.functional as F
# The package-level name is None while tensorplay.distributed.is_available()
# says False (1.0 and 1.1), though gloo works: import it from its module.
from tensorplay.nn.parallel.distributed import DistributedDataParallel

import models
from tensorplay_mlir import backend as backend_module

GLOBAL_BATCH = 128


def digits():
    directory = os.environ["TP_DIGITS_DIR"]
    return (np.load(os.path.join(directory, "x_train.npy")),
            np.load(os.path.join(directory, "y_train.npy")))


def make_model(name):
    tensorplay.manual_seed(0)
    return models.MLP(features=64, hidden=64, layers=1) if name == "mlp" \
        else models.CNN()


def loss_of(name, model, x, y):
    if name == "mlp":
        return model(x, y)[1]
    return F.cross_entropy(model(x.reshape(-1, 1, 8, 8)), y)


class Trainer:
    """A model (compiled, wrapped in DDP when `world` > 1), its optimizer and
    GradScaler, for one scenario."""

    def __init__(self, sc, world):
        self.sc = sc
        self.graphs = []
        self.model = make_model(sc["model"])

        def recording(gm, example_inputs, **kw):
            self.graphs.append(backend_module.backend(gm, example_inputs, **kw))
            return self.graphs[-1]
        self.model.compile(backend=recording, options={"fallback": False})
        self.net = DistributedDataParallel(self.model) if world > 1 \
            else self.model
        params = self.model.parameters()
        self.opt = tensorplay.optim.SGD(params, lr=0.1, momentum=0.9) \
            if sc["optimizer"] == "sgd" else \
            tensorplay.optim.AdamW(params, lr=0.003)
        self.scaler = tensorplay.amp.GradScaler(
            device="cpu", init_scale=1024.0, growth_interval=8,
            enabled=sc["scaler"])

    def step(self, x, y):
        self.opt.zero_grad()
        dtype = {"f32": None, "bf16": tensorplay.bfloat16,
                 "fp16": tensorplay.float16}[self.sc["precision"]]
        with tensorplay.autocast("cpu", dtype=dtype or tensorplay.bfloat16,
                                 enabled=dtype is not None):
            loss = loss_of(self.sc["model"], self.net, x, y)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()
        return float(loss)

    def params(self):
        return [p.detach().numpy().copy() for p in self.model.parameters()]


def batch(x, y, step, rank, ranks):
    """Rank `rank`'s part of the global batch of `step` (the rows one process
    training on the global batch would take)."""
    start = (step * GLOBAL_BATCH) % (len(x) - GLOBAL_BATCH)
    per = GLOBAL_BATCH // ranks
    rows = slice(start + rank * per, start + (rank + 1) * per)
    return (tensorplay.from_numpy(np.ascontiguousarray(x[rows])),
            tensorplay.from_numpy(np.ascontiguousarray(y[rows])))


def run(sc, rank, ranks):
    """Trains one scenario; the arrays to save."""
    x, y = digits()
    t = Trainer(sc, ranks)
    scales, losses, snapshots = [], [], {}
    for s in range(sc["steps"]):
        xb, yb = batch(x, y, s, rank, ranks)
        if sc.get("inject") == s and rank == sc.get("inject_rank", rank):
            xb[0, 0] = float("inf")
        if sc.get("resume_at") == s:
            saved = copy.deepcopy((t.model.state_dict(), t.opt.state_dict(),
                                   t.scaler.state_dict()))
        losses.append(t.step(xb, yb))
        scales.append(t.scaler.get_scale())
        if s in sc.get("snapshots", ()):
            snapshots[s] = t.params()
    out = {"scales": np.array(scales), "losses": np.array(losses),
           "graphs": np.array(len(t.graphs))}
    for i, p in enumerate(t.params()):
        out[f"param{i}"] = p
    for s, params in snapshots.items():
        for i, p in enumerate(params):
            out[f"step{s}.param{i}"] = p
    if "resume_at" in sc:
        # A fresh model, optimizer and scaler loaded from the state saved
        # before step resume_at continue to the end.
        r = Trainer(sc, ranks)
        model_state, opt_state, scaler_state = saved
        r.model.load_state_dict(model_state)
        r.opt.load_state_dict(opt_state)
        r.scaler.load_state_dict(scaler_state)
        for s in range(sc["resume_at"], sc["steps"]):
            r.step(*batch(x, y, s, rank, ranks))
        for i, p in enumerate(r.params()):
            out[f"resumed.param{i}"] = p
    return out


def worker(rank, ranks, port, out_dir, scenarios, timeout_s=60):
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
        world_size=ranks, timeout=datetime.timedelta(seconds=timeout_s))
    for sc in scenarios:
        if sc.get("die_at") is not None:
            die(sc, rank, out_dir)
            continue
        np.savez(os.path.join(out_dir, f"{sc['name']}.rank{rank}.npz"),
                 **run(sc, rank, ranks))
    dist.destroy_process_group()


def die(sc, rank, out_dir):
    """Rank 1 exits before step die_at; rank 0 must get an error from the
    next all-reduce within the process group's timeout, not hang."""
    x, y = digits()
    t = Trainer(sc, 2)
    try:
        for s in range(sc["steps"]):
            if s == sc["die_at"] and rank == 1:
                os._exit(3)
            t.step(*batch(x, y, s, rank, 2))
        message = "no error"
    except Exception as e:  # the reducer's collective failed
        message = f"{type(e).__name__}: {e}"
    with open(os.path.join(out_dir, f"{sc['name']}.rank{rank}.txt"), "w") as f:
        f.write(message)
    os._exit(0)
