#include "tide/storage.h"

namespace tide {

Storage Storage::allocate(size_t nbytes, Allocator* allocator, bool pinned) {
  return Storage(std::make_shared<StorageImpl>(allocator->allocate(nbytes), pinned));
}

}  // namespace tide
