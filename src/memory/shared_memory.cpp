#include "memory/shared_memory.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tide/error.h"

namespace tide::memory {
namespace {

// The segment's fd lives in the DataPtr's context (Note [Shared memory segments]); the deleter
// doubles as the mark that a DataPtr is a segment (DataPtr::deleter's documented use).
void release_segment(void* ctx, void* ptr, size_t nbytes) {
  if (ptr != nullptr) munmap(ptr, nbytes);
  close(static_cast<int>(reinterpret_cast<intptr_t>(ctx)));
}

std::string errno_text() { return std::strerror(errno); }

// Maps `fd` (which the returned DataPtr then owns) or closes it and raises.
DataPtr map_segment(int fd, size_t nbytes, const char* where) {
  void* ptr = nullptr;
  if (nbytes > 0) {
    ptr = mmap(nullptr, nbytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (ptr == MAP_FAILED) {
      const std::string why = errno_text();
      close(fd);
      throw OutOfMemoryError(detail::concat(
          "[", where, "] expected to map ", nbytes, " bytes of shared memory, found that the "
          "system refused (mmap: ", why, "); free memory, or raise the process's memory limits"));
    }
  }
  return DataPtr(ptr, nbytes, Device(kCPU), 0, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                 &release_segment);
}

}  // namespace

void share_storage(const Storage& storage, const char* where) {
  TIDE_CHECK(storage.device().is_cpu(), "[", where, "] expected a cpu tensor, found one on ",
             storage.device().str(), "; shared memory between processes holds cpu tensors "
             "(move it with .cpu() first)");
  if (shared_segment(storage)) return;
  const size_t nbytes = storage.nbytes();
  const int fd = memfd_create("tide_shared_storage", MFD_CLOEXEC);
  TIDE_CHECK_T(OutOfMemoryError, fd >= 0, "[", where, "] expected a shared memory file, found "
               "that the system refused one (memfd_create: ", errno_text(), "); close files or "
               "raise the process's limits");
  if (ftruncate(fd, static_cast<off_t>(nbytes)) != 0) {
    const std::string why = errno_text();
    close(fd);
    throw OutOfMemoryError(detail::concat("[", where, "] expected ", nbytes, " bytes of shared "
                                          "memory, found that the system refused (ftruncate: ",
                                          why, "); free memory in /dev/shm's file system"));
  }
  DataPtr shared = map_segment(fd, nbytes, where);
  if (nbytes > 0) std::memcpy(shared.get(), storage.data(), nbytes);
  storage.set_data_ptr(std::move(shared));
}

std::optional<SharedSegment> shared_segment(const Storage& storage) {
  const DataPtr& d = storage.data_ptr();
  if (d.deleter() != &release_segment) return std::nullopt;
  return SharedSegment{static_cast<int>(reinterpret_cast<intptr_t>(d.context())), d.nbytes()};
}

Storage map_shared_segment(int fd, size_t nbytes, const char* where) {
  struct stat st {};
  const bool is_open = fstat(fd, &st) == 0;
  if (!is_open || st.st_size < 0 || static_cast<size_t>(st.st_size) < nbytes) {
    const std::string found = is_open ? "a file of " + std::to_string(st.st_size) + " bytes"
                                      : "a descriptor that is not open (" + errno_text() + ")";
    close(fd);
    throw Error(detail::concat("[", where, "] expected a shared memory segment of at least ",
                               nbytes, " bytes, found ", found, "; pass the descriptor that "
                               "share_memory_() made, as tide.multiprocessing does"));
  }
  return Storage(std::make_shared<StorageImpl>(map_segment(fd, nbytes, where)));
}

}  // namespace tide::memory
