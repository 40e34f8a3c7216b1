"""tide.save / tide.load in torch.save's zip format, both ways against torch (Debian's 1.13):
files tide writes load in torch with their values, dtypes, shapes and shared storages, and
files torch writes load in tide; map_location in each of torch's forms, weights_only with
torch's message, state_dicts, optimizer state and nested containers, on the cpu and simulated
GPUs. The committed fixture (scripts/gen_torch_save_fixture.py) keeps the torch-to-tide
direction tested where torch is absent."""

import collections
import io
import os
import pickle
import zipfile

import pytest

import tide

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "torch_save",
                       "fixture.pt")
DTYPES = ["bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


def _torch():
    return pytest.importorskip("torch")


def _values(dtype_name):
    return {"bool": [True, False, True], "uint8": [0, 200, 255], "int32": [-(2**31), 0, 2**31 - 1],
            "int64": [-(2**63), 7, 2**63 - 1], "float16": [0.5, -65504.0, 2.0**-12],
            "bfloat16": [1.5, -(2.0**100), 0.0], "float32": [0.25, -1.5, 2.0**100],
            "float64": [1 / 3, -2.5e300, 0.0]}[dtype_name]


def _round_trip(obj, **load_args):
    buffer = io.BytesIO()
    tide.save(obj, buffer)
    buffer.seek(0)
    return tide.load(buffer, **load_args)


# ---- tide to tide


@pytest.mark.parametrize("dtype_name", DTYPES)
def test_every_dtype_round_trips_with_its_values_and_shape(dtype_name):
    dtype = getattr(tide, dtype_name)
    t = tide.tensor([_values(dtype_name)] * 2, dtype=dtype)
    loaded = _round_trip(t)
    assert loaded.dtype == dtype and loaded.shape == (2, 3)
    assert loaded.tolist() == t.tolist()


def test_views_of_one_storage_load_as_views_of_one_storage():
    base = tide.arange(12.0).reshape(3, 4)
    view, transposed = base[1:, ::2], base.t()
    a, v, t, again = _round_trip([base, view, transposed, base])
    assert again is a  # the same object twice is one object, as pickle keeps it
    assert v.storage_offset() == 4 and v.stride() == (4, 2) and t.stride() == (1, 4)
    a.fill_(5.0)
    assert v.tolist() == [[5.0, 5.0], [5.0, 5.0]] and t[0, 0].item() == 5.0


def test_a_state_dict_loads_into_a_fresh_module_as_an_ordered_dict(tmp_path):
    model = tide.nn.Sequential(tide.nn.Linear(3, 4), tide.nn.ReLU(), tide.nn.Linear(4, 2))
    path = tmp_path / "model.pth"
    tide.save(model.state_dict(), path)
    loaded = tide.load(path)
    assert type(loaded) is collections.OrderedDict
    assert list(loaded) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    fresh = tide.nn.Sequential(tide.nn.Linear(3, 4), tide.nn.ReLU(), tide.nn.Linear(4, 2))
    fresh.load_state_dict(loaded)
    for a, b in zip(model.parameters(), fresh.parameters()):
        assert a.tolist() == b.tolist()
    with zipfile.ZipFile(path) as zf:  # torch names the top folder after the file's stem
        assert zf.namelist()[0] == "model/data.pkl"


def test_records_are_stored_with_their_data_on_64_byte_boundaries():
    buffer = io.BytesIO()
    tide.save({"a": tide.ones(3), "b": tide.zeros(5, dtype=tide.float64), "c": tide.tensor([1])},
              buffer)
    raw = buffer.getvalue()
    with zipfile.ZipFile(buffer) as zf:
        assert zf.namelist() == ["archive/data.pkl", "archive/byteorder", "archive/data/0",
                                 "archive/data/1", "archive/data/2", "archive/version"]
        for info in zf.infolist():
            assert info.compress_type == zipfile.ZIP_STORED
            name_len = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little")
            extra_len = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
            assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0, info.filename


def test_optimizer_state_and_nested_containers_round_trip():
    state = {
        "state": {0: {"step": tide.tensor(3.0), "exp_avg": tide.zeros(2)}, 1: {}},
        "param_groups": [{"lr": 1e-3, "betas": (0.9, 0.999), "amsgrad": False, "foreach": None,
                          "params": [0, 1]}],
        "misc": [1, -(2**40), 2**70, 3.5, "text", b"bytes", (True, None), {"k": [1, 2]}],
    }
    loaded = _round_trip(state)
    assert loaded["param_groups"] == state["param_groups"]
    assert loaded["misc"] == state["misc"]
    assert loaded["state"][0]["step"].item() == 3.0
    assert loaded["state"][0]["exp_avg"].tolist() == [0.0, 0.0] and loaded["state"][1] == {}


def test_parameters_and_requires_grad_survive():
    p = tide.nn.Parameter(tide.tensor([2.0, 4.0]))
    leaf = tide.ones(2).requires_grad_()
    lp, ll = _round_trip([p, leaf])
    assert isinstance(lp, tide.nn.Parameter) and lp.requires_grad and lp.tolist() == [2.0, 4.0]
    assert ll.requires_grad and ll.is_leaf


# ---- devices and map_location


def test_a_gpu_tensor_loads_where_it_was_saved_or_where_map_location_says():
    t = tide.arange(6.0, device="cuda:1").reshape(2, 3)
    buffer = io.BytesIO()
    tide.save({"t": t, "view": t[1], "cpu": tide.ones(2)}, buffer)

    def load(map_location):
        buffer.seek(0)
        return tide.load(buffer, map_location=map_location)

    same = load(None)
    assert same["t"].device == tide.device("cuda:1") and same["cpu"].device.type == "cpu"
    assert same["view"].tolist() == [3.0, 4.0, 5.0]
    assert load("cpu")["t"].device.type == "cpu"
    assert load(tide.device("cuda:2"))["view"].device == tide.device("cuda:2")
    by_dict = load({"cuda:1": "cpu", "cpu": "cuda:0"})
    assert by_dict["t"].device.type == "cpu" and by_dict["cpu"].device == tide.device("cuda:0")
    seen = []

    def fn(storage, location):
        seen.append((storage.device.type, location))
        return storage if location == "cpu" else storage.cuda(0)
    called = load(fn)
    assert sorted(seen) == [("cpu", "cpu"), ("cpu", "cuda:1")]
    assert called["t"].device == tide.device("cuda:0") and called["cpu"].device.type == "cpu"
    assert called["view"].tolist() == [3.0, 4.0, 5.0]
    assert load(lambda storage, location: None)["t"].device == tide.device("cuda:1")


# ---- refusals


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo should-not-run",))


def test_weights_only_refuses_other_globals_with_torchs_message():
    buffer = io.BytesIO()
    tide.save({"w": tide.ones(2), "evil": _Evil()}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"^Weights only load failed\. .*"
                       r"WeightsUnpickler error: Unsupported class (posix|os)\.system$"):
        tide.load(buffer, weights_only=True)
    buffer = io.BytesIO()
    tide.save({"w": tide.ones(2), "od": collections.OrderedDict(a=1)}, buffer)
    buffer.seek(0)
    assert tide.load(buffer, weights_only=True)["od"] == {"a": 1}
    with pytest.raises(RuntimeError, match="explicit pickle_module"):
        tide.load(buffer, pickle_module=pickle, weights_only=True)


def test_broken_files_raise_tide_errors(tmp_path):
    path = tmp_path / "x.pt"
    tide.save([tide.arange(4)], path)
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(tide.Error, match=r"^\[tide\.load\] .* is not a zip archive"):
        tide.load(path)
    bad = io.BytesIO()
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("x/data.pkl", pickle.dumps([1], protocol=2))
    bad.seek(0)
    assert tide.load(bad) == [1]  # any top folder
    with pytest.raises(tide.Error, match="no <folder>/data.pkl"):
        tide.load(io.BytesIO(zipfile_bytes({"x/y/data.pkl": b""})))


def zipfile_bytes(records):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in records.items():
            zf.writestr(name, data)
    return out.getvalue()


def test_a_record_that_lies_about_its_tensor_raises():
    buffer = io.BytesIO()
    tide.save(tide.arange(4.0), buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as zf:
        records = {name: zf.read(name) for name in zf.namelist()}
    short = dict(records, **{"archive/data/0": records["archive/data/0"][:8]})
    with pytest.raises(tide.Error, match=r"holds 8 bytes; expected 4 float32 elements"):
        tide.load(io.BytesIO(zipfile_bytes(short)))
    no_record = {k: v for k, v in records.items() if k != "archive/data/0"}
    with pytest.raises(tide.Error, match="no record 'archive/data/0'"):
        tide.load(io.BytesIO(zipfile_bytes(no_record)))
    bools = io.BytesIO()
    tide.save(tide.tensor([True, False]), bools)
    with zipfile.ZipFile(io.BytesIO(bools.getvalue())) as zf:
        records = {name: zf.read(name) for name in zf.namelist()}
    records["archive/data/0"] = b"\x00\x07"
    with pytest.raises(tide.Error, match="holds the byte 7 in a bool storage"):
        tide.load(io.BytesIO(zipfile_bytes(records)))


def test_tide_load_on_a_safetensors_file_and_legacy_saving_are_refused(tmp_path):
    with pytest.raises(tide.Error, match="_use_new_zipfile_serialization=True"):
        tide.save(tide.ones(1), tmp_path / "x.pt", _use_new_zipfile_serialization=False)


# ---- against torch 1.13


def test_tide_loads_the_committed_file_torch_wrote():
    f = tide.load(FIXTURE)
    assert f["f32"].tolist() == [[-1.0, -0.5, 0.0], [0.5, 1.0, 1.5]]
    assert f["i64"].tolist() == [-(2**63), 2**63 - 1, 7] and f["u8"].dtype == tide.uint8
    assert f["bf16"].dtype == tide.bfloat16 and f["bf16"].tolist()[0] == 1.5
    assert f["view"].tolist() == [[4.0, 6.0], [8.0, 10.0]]
    f["base"].fill_(0.0)
    assert f["view"].tolist() == [[0.0, 0.0], [0.0, 0.0]]  # still a view of base
    assert type(f["state_dict"]) is collections.OrderedDict
    linear = tide.nn.Linear(3, 2)
    linear.load_state_dict(f["state_dict"])
    assert linear.bias.tolist() == [-1.5, 0.5]
    assert f["optimizer"]["state"][0]["momentum_buffer"].tolist() == [[1.0] * 3] * 2
    assert f["optimizer"]["param_groups"][0]["lr"] == 0.5
    assert isinstance(f["param"], tide.nn.Parameter) and f["param"].requires_grad
    assert f["nested"] == [1, -(2**40), 3.5, "text", (True, None), {"k": [1, 2]}]
    assert tide.load(FIXTURE, weights_only=True)["param"].tolist() == [2.0, 4.0]


def _tide_checkpoint():
    base = tide.arange(12.0).reshape(3, 4)
    model = tide.nn.Linear(3, 2)
    with tide.no_grad():
        model.weight.copy_(tide.arange(6.0).reshape(2, 3))
    return {
        "dtypes": [tide.tensor(_values(n), dtype=getattr(tide, n)) for n in DTYPES],
        "base": base, "view": base[1:, ::2],
        "state_dict": model.state_dict(),
        "param": tide.nn.Parameter(tide.tensor([2.0, 4.0])),
        "misc": [1, -(2**40), "text", (True, None), {"k": [1, 2]}],
    }


def test_torch_loads_what_tide_saved(tmp_path):
    torch = _torch()
    path = tmp_path / "tide.pt"
    tide.save(_tide_checkpoint(), path)
    # Without floats outside tensors, torch 1.13's weights_only unpickler reads it too (it lacks
    # BINFLOAT).
    for loaded in (torch.load(path), torch.load(path, weights_only=True)):
        for name, t in zip(DTYPES, loaded["dtypes"]):
            assert t.dtype == getattr(torch, name) and t.tolist() == _values(name), name
        base, view = loaded["base"], loaded["view"]
        assert view.storage_offset() == 4 and view.stride() == (4, 2)
        assert view.storage().data_ptr() == base.storage().data_ptr()
        base.fill_(7.0)
        assert view.tolist() == [[7.0, 7.0], [7.0, 7.0]]
        assert type(loaded["state_dict"]) is collections.OrderedDict
        linear = torch.nn.Linear(3, 2)
        linear.load_state_dict(loaded["state_dict"])
        assert linear.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        assert isinstance(loaded["param"], torch.nn.Parameter)
        assert loaded["misc"] == [1, -(2**40), "text", (True, None), {"k": [1, 2]}]


def test_tide_loads_what_torch_saves_now(tmp_path):
    torch = _torch()
    base = torch.arange(12.0).reshape(3, 4)
    linear = torch.nn.Linear(3, 2)
    sgd = torch.optim.SGD(linear.parameters(), lr=0.1, momentum=0.9)
    linear(torch.ones(1, 3)).sum().backward()
    sgd.step()
    value = {"dtypes": [torch.tensor(_values(n), dtype=getattr(torch, n)) for n in DTYPES],
             "base": base, "view": base.t()[1:], "model": linear.state_dict(),
             "optimizer": sgd.state_dict()}
    path = tmp_path / "from_torch.pth"
    torch.save(value, path)
    for loaded in (tide.load(path), tide.load(path, weights_only=True),
                   tide.load(path, map_location="cuda:0")):
        for name, t in zip(DTYPES, loaded["dtypes"]):
            assert t.dtype == getattr(tide, name) and t.tolist() == _values(name), name
        assert loaded["view"].tolist() == value["view"].tolist()
        assert loaded["view"].stride() == value["view"].stride()
        fresh = tide.nn.Linear(3, 2)
        fresh.load_state_dict(loaded["model"])
        assert fresh.weight.tolist() == linear.weight.tolist()
        assert loaded["optimizer"]["param_groups"] == value["optimizer"]["param_groups"]
        momentum = loaded["optimizer"]["state"][0]["momentum_buffer"]
        assert momentum.tolist() == value["optimizer"]["state"][0]["momentum_buffer"].tolist()
    assert tide.load(path, map_location="cuda:0")["view"].device == tide.device("cuda:0")
