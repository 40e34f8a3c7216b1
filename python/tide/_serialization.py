"""tide.save and tide.load: torch.save's own file format, written and read with Python's pickle
and zipfile as torch does, so a checkpoint moves between tide and PyTorch both ways.

The archive (torch >= 1.6): ``<top>/data.pkl`` (the pickle, protocol 2), ``<top>/data/<key>``
(one record per storage, raw little-endian bytes), ``<top>/byteorder`` and ``<top>/version``;
``<top>`` is the file's stem (``model/`` for ``model.pth``), or ``archive`` for a buffer, and any
name is read. A tensor is pickled as torch pickles it, ``torch._utils._rebuild_tensor_v2(storage,
offset, size, stride, requires_grad, OrderedDict())`` with its storage as a persistent id
``('storage', torch.FloatStorage, key, location, numel)``, so torch reads tide's files and tide
reads torch's; views of one storage share one record and load as views of one storage. Records
are stored uncompressed with their data at 64-byte boundaries, as torch writes them (Note
[Archive layout] in src/serialize/torch_zip.h). The C++ side is include/tide/torch_format.h.
"""

import collections
import io
import os
import pickle
import sys
import zipfile

from . import _C

_DTYPE_STORAGES = {
    "bool": "BoolStorage",
    "uint8": "ByteStorage",
    "int32": "IntStorage",
    "int64": "LongStorage",
    "float16": "HalfStorage",
    "bfloat16": "BFloat16Storage",
    "float32": "FloatStorage",
    "float64": "DoubleStorage",
}
_VERSION = b"3\n"  # what torch 1.13 writes; its readers accept 1 to 10
_ALIGNMENT = 64
_PADDING_ID = 0x4246  # "FB": torch's writer pads its local headers with this extra field

# torch 1.13's weights_only message (torch/serialization.py), followed by the refusal.
_UNSAFE_MESSAGE = (
    "Weights only load failed. Re-running `torch.load` with `weights_only` set to `False`"
    " will likely succeed, but it can result in arbitrary code execution."
    "Do it only if you get the file from a trusted source. WeightsUnpickler error: "
)


def _dtype_by_name(name):
    return getattr(sys.modules["tide"], name)


# ---- saving


class _Global:
    """Pickles as GLOBAL module.name: a torch name written without importing torch."""

    __slots__ = ("module", "qualname")

    def __init__(self, module, qualname):
        self.module, self.qualname = module, qualname

    def __call__(self, *args):  # pickle's save_reduce asks for a callable
        raise TypeError(f"{self.module}.{self.qualname} is a name for torch, not callable here")


_REBUILD_TENSOR = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")


class _StorageRef:
    """A storage in the pickle; its persistent id names the record that holds its bytes."""

    __slots__ = ("pid",)

    def __init__(self, pid):
        self.pid = pid


class _Pickler(pickle._Pickler):
    """Python's pickler (the pure-Python one, whose dispatch table a subclass may extend) with
    torch's reductions for tide's tensors and persistent ids for their storages."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}  # (address, location, dtype) -> (key, tensor)
        self.storage_types = {}  # storage class name -> its _Global, so the memo shares it

    def _save_global_marker(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.qualname}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[_Global] = _save_global_marker

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _StorageRef else None

    def reducer_override(self, obj):
        if not isinstance(obj, _C.Tensor):
            return NotImplemented
        from .nn.parameter import Parameter
        if isinstance(obj, Parameter):
            # As torch's Parameter.__reduce_ex__: the data as a plain tensor, and the flag.
            return (_REBUILD_PARAMETER,
                    (obj.detach(), obj.requires_grad, collections.OrderedDict()))
        return (_REBUILD_TENSOR, (self._storage_ref(obj), obj.storage_offset(),
                                  tuple(obj.shape), tuple(obj.stride()),
                                  obj.requires_grad, collections.OrderedDict()))

    def _storage_ref(self, t):
        # One record per (storage, dtype): Note [Storage records] in
        # src/serialize/pickle_writer.cpp.
        address, location, nbytes = _C._storage_key(t)
        dtype_name = str(t.dtype).split(".")[-1]
        key = (address, location, dtype_name)
        if key not in self.storages:
            self.storages[key] = (str(len(self.storages)), t)
        type_name = _DTYPE_STORAGES[dtype_name]
        storage_type = self.storage_types.setdefault(type_name, _Global("torch", type_name))
        return _StorageRef(("storage", storage_type, self.storages[key][0], location,
                            nbytes // t.element_size()))


def _top_folder(f):
    if isinstance(f, (str, os.PathLike)):
        stem = os.path.splitext(os.path.basename(os.fspath(f)))[0]
        return stem or "archive"
    return "archive"


def _write_record(zf, name, data):
    """Adds a stored record whose data starts on a 64-byte boundary of the archive."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header = 30 + len(name.encode("utf-8"))
    if len(data) * 1.05 > zipfile.ZIP64_LIMIT:  # zipfile's own test in _open_to_write
        header += 20  # zipfile's zip64 extra field in the local header
    offset = zf.fp.tell() - zf._start_disk if hasattr(zf, "_start_disk") else zf.fp.tell()
    pad = -(offset + header) % _ALIGNMENT
    if pad:
        if pad < 4:
            pad += _ALIGNMENT
        info.extra = _PADDING_ID.to_bytes(2, "little") + (pad - 4).to_bytes(2, "little") + \
            b"Z" * (pad - 4)
    zf.writestr(info, data)


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Saves ``obj`` to ``f`` (a path or a writable binary file) in torch.save's zip format."""
    if not _use_new_zipfile_serialization:
        raise _C.Error("[tide.save] expected _use_new_zipfile_serialization=True, found False; "
                       "tide writes only torch's zip format (torch >= 1.6 reads it)")
    if pickle_module is not pickle:
        raise _C.Error("[tide.save] expected the pickle module, found another pickle_module; "
                       "tide writes torch's pickles with Python's own pickle")
    buffer = io.BytesIO()
    pickler = _Pickler(buffer, pickle_protocol)
    pickler.dump(obj)
    top = _top_folder(f)
    opened = isinstance(f, (str, os.PathLike))
    target = open(f, "wb") if opened else f
    try:
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zf:
            _write_record(zf, f"{top}/data.pkl", buffer.getvalue())
            if not _disable_byteorder_record:
                _write_record(zf, f"{top}/byteorder", sys.byteorder.encode())
            for key, tensor in pickler.storages.values():
                _write_record(zf, f"{top}/data/{key}", _C._storage_bytes(tensor))
            _write_record(zf, f"{top}/version", _VERSION)
    finally:
        if opened:
            target.close()


# ---- loading


class _StorageType:
    """What torch.FloatStorage and its kin unpickle to: the element type of a storage."""

    def __init__(self, dtype):
        self.dtype = dtype


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    t = _C._tensor_over_storage(storage, list(size), list(stride), storage_offset)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _torch_global(module, name):
    """The tide object for a torch global a checkpoint names, or None."""
    if module == "torch._utils" and name == "_rebuild_tensor_v2":
        return _rebuild_tensor_v2
    if module == "torch._utils" and name == "_rebuild_parameter":
        return _rebuild_parameter
    if module == "torch" and name.endswith("Storage"):
        for dtype_name, storage_name in _DTYPE_STORAGES.items():
            if storage_name == name:
                return _StorageType(_dtype_by_name(dtype_name))
        raise _C.Error(f"[tide.load] the file holds a torch.{name}, a dtype tide does not have; "
                       "expected one of tide's dtypes: convert the tensor in torch first")
    if module == "torch" and name == "Size":
        return sys.modules["tide"].Size
    if module == "torch" and name in _DTYPE_STORAGES:
        return _dtype_by_name(name)
    if module == "collections" and name == "OrderedDict":
        return collections.OrderedDict
    return None


class _Unpickler(pickle.Unpickler):
    """torch.load's unpickler: torch's tensor and storage globals become tide's, other torch
    names their tide namesake (torch.nn.X -> tide.nn.X), the rest as pickle finds them."""

    def find_class(self, module, name):
        found = _torch_global(module, name)
        if found is not None:
            return found
        if module == "torch" or module.startswith("torch."):
            module = "tide" + module[len("torch"):]
        return super().find_class(module, name)


class _WeightsUnpickler(pickle.Unpickler):
    """weights_only=True: only tensors, storages, dtypes, torch.Size, OrderedDict and plain
    containers and numbers; every other global is refused before it is looked up, so loading
    runs no code from the file (the standard "restricting globals" of Python's pickle docs)."""

    def find_class(self, module, name):
        found = _torch_global(module, name)
        if found is None:
            raise pickle.UnpicklingError(_UNSAFE_MESSAGE + f"Unsupported class {module}.{name}")
        return found


def _restore_location(map_location):
    """torch's map_location forms as one function (storage, saved location) -> tensor."""
    def to(storage, device):
        device = _C.device(device) if isinstance(device, str) else device
        return storage if storage.device == device else storage.to(device)

    if map_location is None:
        return to
    if isinstance(map_location, dict):
        return lambda storage, location: to(storage, map_location.get(location, location))
    if isinstance(map_location, (str, _C.device)):
        return lambda storage, location: to(storage, map_location)

    def call(storage, location):
        result = map_location(storage, location)
        return to(storage, location) if result is None else result
    return call


def _find_top(names):
    for name in names:
        top, slash, rest = name.partition("/")
        if slash and rest == "data.pkl":
            return top
    raise _C.Error("[tide.load] the archive has no <folder>/data.pkl record; expected a zip "
                   "written by torch.save or tide.save")


def load(f, map_location=None, pickle_module=None, *, weights_only=False, mmap=None,
         **pickle_load_args):
    """Loads what torch.save or tide.save wrote to ``f`` (a path or a readable binary file)."""
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if mmap:
        raise _C.Error("[tide.load] expected mmap=False or None, found mmap=True; tide reads "
                       "the records into memory")
    opened = isinstance(f, (str, os.PathLike))
    source = open(f, "rb") if opened else f
    try:
        if not zipfile.is_zipfile(source):
            raise _C.Error(f"[tide.load] {f!r} is not a zip archive; expected a file written by "
                           "torch.save (torch >= 1.6) or tide.save. The legacy format of "
                           "_use_new_zipfile_serialization=False is not read")
        source.seek(0)
        with zipfile.ZipFile(source) as zf:
            return _load_archive(zf, map_location, weights_only, pickle_load_args)
    finally:
        if opened:
            source.close()


def _load_archive(zf, map_location, weights_only, pickle_load_args):
    names = zf.namelist()
    top = _find_top(names)
    if f"{top}/byteorder" in names:
        order = zf.read(f"{top}/byteorder").decode("ascii", "replace")
        if order != "little":
            raise _C.Error(f"[tide.load] the archive's storages are {order}-endian; expected "
                           "little-endian (tide runs on little-endian hosts only)")
    restore = _restore_location(map_location)
    loaded = {}

    def persistent_load(saved_id):
        if not (isinstance(saved_id, tuple) and len(saved_id) == 5 and saved_id[0] == "storage"
                and isinstance(saved_id[1], _StorageType)):
            raise pickle.UnpicklingError(f"[tide.load] expected a storage's persistent id, "
                                         f"found {saved_id!r}")
        _, storage_type, key, location, numel = saved_id
        if key not in loaded:
            record = f"{top}/data/{key}"
            if record not in names:
                raise _C.Error(f"[tide.load] the archive has no record '{record}'; expected "
                               "every storage the pickle names. The file is incomplete")
            storage = _C._storage_from_bytes(zf.read(record), storage_type.dtype, numel, record)
            loaded[key] = restore(storage, location)
        return loaded[key]

    data = zf.read(f"{top}/data.pkl")
    if weights_only:
        unpickler = _WeightsUnpickler(io.BytesIO(data), encoding="ASCII")
    else:
        unpickler = _Unpickler(io.BytesIO(data), **pickle_load_args)
    unpickler.persistent_load = persistent_load
    try:
        return unpickler.load()
    except RuntimeError as e:
        if weights_only and not isinstance(e, _C.Error):
            raise pickle.UnpicklingError(_UNSAFE_MESSAGE + str(e)) from None
        raise
