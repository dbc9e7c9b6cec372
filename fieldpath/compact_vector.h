// CompactVector: the storage of a set node's entries. A vector that is one
// pointer wide (null when empty), with its size and capacity in the block
// it points to. Set entries hold a node each, most of them empty (leaves),
// so the node's width is paid once per path element in every set.
//
// Internal to fieldpath/; only the operations sets need.
#ifndef SMDX_FIELDPATH_COMPACT_VECTOR_H_
#define SMDX_FIELDPATH_COMPACT_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace smdx {
namespace internal {

template <typename T>
class CompactVector {
 public:
  CompactVector() = default;
  CompactVector(const CompactVector& o) {
    const size_t n = o.size();
    if (n == 0) return;
    h_ = Allocate(n);
    for (size_t i = 0; i < n; ++i) new (data() + i) T(o.data()[i]);
    h_->size = n;
  }
  CompactVector(CompactVector&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  CompactVector& operator=(const CompactVector& o) {
    if (this != &o) {
      CompactVector copy(o);
      std::swap(h_, copy.h_);
    }
    return *this;
  }
  CompactVector& operator=(CompactVector&& o) noexcept {
    if (this != &o) {
      Release();
      h_ = o.h_;
      o.h_ = nullptr;
    }
    return *this;
  }
  ~CompactVector() { Release(); }

  size_t size() const { return h_ == nullptr ? 0 : h_->size; }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return h_ == nullptr ? 0 : h_->capacity; }

  T* data() { return h_ == nullptr ? nullptr : Elements(h_); }
  const T* data() const { return h_ == nullptr ? nullptr : Elements(h_); }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

  void reserve(size_t n) {
    if (n > capacity()) Grow(n);
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size() == capacity()) Grow(NextCapacity());
    T* p = new (data() + h_->size) T(std::forward<Args>(args)...);
    ++h_->size;
    return *p;
  }

  // Inserts before position `i` (at most size()); returns the new element.
  template <typename... Args>
  T& emplace_at(size_t i, Args&&... args) {
    // Built first: the arguments may refer to elements that move below.
    T x(std::forward<Args>(args)...);
    if (size() == capacity()) Grow(NextCapacity());
    T* d = data();
    const size_t n = h_->size;
    if (i == n) {
      new (d + n) T(std::move(x));
    } else {
      new (d + n) T(std::move(d[n - 1]));
      for (size_t j = n - 1; j > i; --j) d[j] = std::move(d[j - 1]);
      d[i] = std::move(x);
    }
    ++h_->size;
    return d[i];
  }

  void pop_back() {
    --h_->size;
    data()[h_->size].~T();
  }
  // Destroys the elements from position `n` on.
  void truncate(size_t n) {
    while (size() > n) pop_back();
  }

 private:
  struct Header {
    size_t size;
    size_t capacity;
  };

  static T* Elements(Header* h) { return reinterpret_cast<T*>(h + 1); }
  static const T* Elements(const Header* h) {
    return reinterpret_cast<const T*>(h + 1);
  }
  static Header* Allocate(size_t capacity) {
    static_assert(
        alignof(T) <= alignof(Header) && sizeof(Header) % alignof(T) == 0,
        "elements follow the header");
    void* mem = ::operator new(sizeof(Header) + capacity * sizeof(T));
    return new (mem) Header{0, capacity};
  }
  size_t NextCapacity() const { return capacity() == 0 ? 1 : 2 * capacity(); }
  void Grow(size_t capacity) {
    Header* bigger = Allocate(capacity);
    const size_t n = size();
    T* from = data();
    for (size_t i = 0; i < n; ++i) {
      new (Elements(bigger) + i) T(std::move(from[i]));
      from[i].~T();
    }
    bigger->size = n;
    if (h_ != nullptr) ::operator delete(h_);
    h_ = bigger;
  }
  void Release() {
    if (h_ == nullptr) return;
    T* d = data();
    for (size_t i = 0; i < h_->size; ++i) d[i].~T();
    ::operator delete(h_);
    h_ = nullptr;
  }

  Header* h_ = nullptr;
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_FIELDPATH_COMPACT_VECTOR_H_
