"""The recurrent layers (torch.nn's RNNCell, LSTMCell, GRUCell, RNN, LSTM and GRU) with
torch's parameter names, shapes and initialization (every parameter from U(-1/sqrt(hidden),
1/sqrt(hidden))), composed from tide's linear and pointwise ops: autograd comes with them.

Note [Recurrent layers step in Python]: RNN, LSTM and GRU run their cell once per time step,
layer and direction, as torch's reference (non-cuDNN) implementation does; the cell's gate
arithmetic is torch's, so outputs agree with torch's to rounding. There is no fused kernel
and no PackedSequence: an input is a padded tensor."""

import math

from ... import _C
from ..._factories import empty, zeros
from ..._grad_mode import no_grad
from .. import functional as F
from ..parameter import Parameter
from .module import Module


def _uniform_parameters(module, hidden_size):
    stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
    with no_grad():
        for weight in module.parameters():
            weight.uniform_(-stdv, stdv)


def _rnn_tanh(x, h, w_ih, w_hh, b_ih, b_hh):
    return (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).tanh()


def _rnn_relu(x, h, w_ih, w_hh, b_ih, b_hh):
    return (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).relu()


def _lstm(x, state, w_ih, w_hh, b_ih, b_hh):
    h, c = state
    gates = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, -1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def _gru(x, h, w_ih, w_hh, b_ih, b_hh):
    i_r, i_z, i_n = F.linear(x, w_ih, b_ih).chunk(3, -1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, -1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return n + z * (h - n)


_CELLS = {"RNN_TANH": (_rnn_tanh, 1), "RNN_RELU": (_rnn_relu, 1), "LSTM": (_lstm, 4),
          "GRU": (_gru, 3)}


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        kw = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), **kw))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), **kw))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, **kw))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        _uniform_parameters(self, self.hidden_size)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _run(self, cell, input, hx, lstm):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1-D or 2-D but "
                             f"received {input.dim()}-D tensor")
        unbatched = input.dim() == 1
        x = input.unsqueeze(0) if unbatched else input
        if hx is None:
            h = zeros(x.size(0), self.hidden_size, dtype=x.dtype, device=x.device)
            hx = (h, h) if lstm else h
        elif unbatched:
            hx = tuple(t.unsqueeze(0) for t in hx) if lstm else hx.unsqueeze(0)
        out = cell(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if unbatched:
            out = tuple(t.squeeze(0) for t in out) if lstm else out.squeeze(0)
        return out


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        cell = _rnn_tanh if self.nonlinearity == "tanh" else _rnn_relu
        return self._run(cell, input, hx, False)


class LSTMCell(RNNCellBase):
    """(h', c') from the input, forget, cell and output gates (in that order in the
    weights, as torch)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        return self._run(_lstm, input, hx, True)


class GRUCell(RNNCellBase):
    """h' from the reset, update and new gates (in that order in the weights, as torch)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        return self._run(_gru, input, hx, False)


class RNNBase(Module):
    """num_layers stacked recurrent layers, each over the sequence in one or (bidirectional)
    both directions; Note [Recurrent layers step in Python]."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None,
                 dtype=None):
        super().__init__()
        if mode not in _CELLS:
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if proj_size != 0:
            raise _C.Error("[tide.nn.LSTM] proj_size is not supported by tide; leave it 0")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, 0
        gates = _CELLS[mode][1] * hidden_size
        directions = 2 if bidirectional else 1
        kw = {"device": device, "dtype": dtype}
        self._flat_weights_names = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [("weight_ih", (gates, layer_input)),
                          ("weight_hh", (gates, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(empty(shape, **kw)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self):
        _uniform_parameters(self, self.hidden_size)

    def flatten_parameters(self):
        """A no-op: tide keeps no flattened (cuDNN) copy of the weights."""

    @property
    def all_weights(self):
        per_direction = 4 if self.bias else 2
        weights = [getattr(self, n) for n in self._flat_weights_names]
        return [weights[i:i + per_direction] for i in range(0, len(weights), per_direction)]

    def _weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        return [getattr(self, n + suffix) if self.bias or n.startswith("weight") else None
                for n in names]

    def forward(self, input, hx=None):
        lstm = self.mode == "LSTM"
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2-D or 3-D but "
                             f"received {input.dim()}-D tensor")
        unbatched = input.dim() == 2
        x = input.unsqueeze(1) if unbatched else (input.transpose(0, 1) if self.batch_first
                                                   else input)
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")
        directions = 2 if self.bidirectional else 1
        steps, batch = x.size(0), x.size(1)
        if hx is None:
            h0 = zeros(self.num_layers * directions, batch, self.hidden_size, dtype=x.dtype,
                       device=x.device)
            hx = (h0, h0) if lstm else h0
        elif unbatched:
            hx = tuple(t.unsqueeze(1) for t in hx) if lstm else hx.unsqueeze(1)
        cell = _CELLS[self.mode][0]
        finals_h, finals_c = [], []
        layer_input = x
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                k = layer * directions + direction
                state = (hx[0][k], hx[1][k]) if lstm else hx[k]
                weights = self._weights(layer, direction)
                order = range(steps - 1, -1, -1) if direction == 1 else range(steps)
                seq = [None] * steps
                for t in order:
                    state = cell(layer_input[t], state, *weights)
                    seq[t] = state[0] if lstm else state
                outputs.append(_C.stack(seq, 0))
                finals_h.append(state[0] if lstm else state)
                if lstm:
                    finals_c.append(state[1])
            layer_input = outputs[0] if directions == 1 else _C.cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        h_n = _C.stack(finals_h, 0)
        c_n = _C.stack(finals_c, 0) if lstm else None
        if unbatched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if lstm else None
        elif self.batch_first:
            output = output.transpose(0, 1)
        return (output, (h_n, c_n)) if lstm else (output, h_n)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: nonlinearity "tanh" (default) or "relu"."""

    def __init__(self, *args, nonlinearity="tanh", **kwargs):
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)
