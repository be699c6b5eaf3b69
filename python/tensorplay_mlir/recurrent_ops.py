"""The recurrent layers of tensorplay 1.1's registry (lstm, gru, rnn_tanh,
rnn_relu: what nn.LSTM, nn.GRU and nn.RNN call) unrolled over time into one
tp cell per step, layer and direction (tp.lstm_cell, tp.gru_cell,
tp.rnn_cell), in eager's order: each layer reads the previous one's
outputs (both directions concatenated), the reverse direction walks the
sequence backwards, and the final states are stacked (layer, direction).
None of these cells is in the CPU autocast tables, as eager's layers are
not: they run in the input's dtype. Dropout between layers in training
(random) and packed sequences (batch sizes from values) are refused; so is
an LSTM with projections (its parameters do not fit the cells).
"""

from .layer_ops import _cell_operands
from .composite import Composer
from .ops import Unsupported, _value, handles

_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _cell(tr, kind, x, states, w_ih, w_hh, b_ih, b_hh):
    """The next states of one cell step: [h, c] for an LSTM, [h] else."""
    operands, text = _cell_operands(tr, x, states, w_ih, w_hh, b_ih, b_hh)
    h = states[0]
    if kind == "lstm":
        return tr.emit_multi("lstm_cell", operands, [(h.shape, h.elt)] * 2,
                             operand_format=text)
    if kind == "gru":
        return [tr.emit("gru_cell", operands, h.shape, h.elt,
                        operand_format=text)]
    attrs = 'nonlinearity = "relu"' if kind == "rnn_relu" else ""
    return [tr.emit("rnn_cell", operands, h.shape, h.elt, attrs,
                    operand_format=text)]


def unrolled(tr, kind, x, states, params, has_biases, num_layers, dropout,
             train, bidirectional, batch_first):
    """(output, [final states stacked per kind: h, (c)])."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank != 3:
        raise Unsupported(f"a rank-{x.rank} {kind} input (eager's takes 3)")
    if dropout and train and num_layers > 1:
        raise Unsupported("dropout between layers in training (random)")
    directions = 2 if bidirectional else 1
    per = 4 if has_biases else 2
    params = [_value(tr, p) for p in params]
    if len(params) != num_layers * directions * per:
        raise Unsupported(f"{len(params)} {kind} parameters for "
                          f"{num_layers} layers (projections?)")
    if batch_first:
        x = c.permute(x, (1, 0, 2))
    length, batch = x.shape[0], x.shape[1]
    states = [_value(tr, s) for s in states]
    hidden = states[0].shape[-1]
    if any(s.shape != (num_layers * directions, batch, hidden)
           for s in states):
        raise Unsupported(f"{kind} states of shapes "
                          f"{[s.shape for s in states]}")
    finals = [[] for _ in states]
    layer_input = x
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            k = layer * directions + direction
            w = params[k * per:(k + 1) * per]
            w_ih, w_hh = w[0], w[1]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            if w_hh.shape[0] != _GATES[kind] * hidden:
                raise Unsupported(f"{kind} weights of shape {w_hh.shape} for "
                                  f"a hidden size of {hidden}")
            current = [c.reshape(c.slice(s, 0, k, k + 1), (batch, hidden))
                       for s in states]
            steps = [None] * length
            order = range(length - 1, -1, -1) if direction else range(length)
            for t in order:
                step = c.reshape(c.slice(layer_input, 0, t, t + 1),
                                 (batch, layer_input.shape[2]))
                current = _cell(tr, kind, step, current, w_ih, w_hh, b_ih,
                                b_hh)
                steps[t] = c.reshape(current[0], (1, batch, hidden))
            outputs.append(c.cat(steps, 0) if length > 1 else steps[0])
            for final, value in zip(finals, current):
                final.append(c.reshape(value, (1, batch, hidden)))
        layer_input = c.cat(outputs, 2) if directions > 1 else outputs[0]
    output = c.permute(layer_input, (1, 0, 2)) if batch_first else \
        layer_input
    return output, [c.cat(f, 0) if len(f) > 1 else f[0] for f in finals]


# The overloads the handlers refuse (coverage.py lists them refused).
_PACKED = {"data": "the result's shape depends on the values (a packed "
           "sequence's batch sizes)"}


def _layer(kind):
    def handler(tr, node, input, hx, params, has_biases=True, num_layers=1,
                dropout=0.0, train=False, bidirectional=False,
                batch_first=False):
        overload = getattr(node.target, "_overloadname", "")
        if overload in _PACKED:
            raise Unsupported(_PACKED[overload])
        states = list(hx) if isinstance(hx, (list, tuple)) else [hx]
        if len(states) != (2 if kind == "lstm" else 1):
            raise Unsupported(f"{len(states)} {kind} states")
        output, finals = unrolled(tr, kind, input, states, params,
                                  bool(has_biases), int(num_layers),
                                  float(dropout), bool(train),
                                  bool(bidirectional), bool(batch_first))
        return tuple([output] + finals)
    handler.refused_overloads = _PACKED
    return handler


for _kind in _GATES:
    handles(_kind)(_layer(_kind))
