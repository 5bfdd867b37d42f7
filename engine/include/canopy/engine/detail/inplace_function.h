#pragma once
// A move-only callable with inline storage: an operation's work is stored in its pooled node, so
// enqueueing a copy, a host function or a kernel launch allocates nothing in the common case.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace canopy::engine::detail {

template <class Signature, std::size_t Capacity = 64>
class InplaceFunction;

template <class R, class... Args, std::size_t Capacity>
class InplaceFunction<R(Args...), Capacity> {
public:
    InplaceFunction() = default;
    InplaceFunction(const InplaceFunction&) = delete;
    InplaceFunction& operator=(const InplaceFunction&) = delete;

    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InplaceFunction>>>
    InplaceFunction(F&& f) { assign(std::forward<F>(f)); }

    InplaceFunction(InplaceFunction&& other) noexcept { move_from(other); }
    InplaceFunction& operator=(InplaceFunction&& other) noexcept {
        if (this != &other) { reset(); move_from(other); }
        return *this;
    }
    ~InplaceFunction() { reset(); }

    explicit operator bool() const { return ops_ != nullptr; }
    R operator()(Args... args) { return ops_->invoke(target(), std::forward<Args>(args)...); }

    void reset() {
        if (ops_) { ops_->destroy(target()); ops_ = nullptr; }
    }

private:
    struct Ops {
        R (*invoke)(void*, Args&&...);
        void (*destroy)(void*);
        void (*move)(void* from, void* to);  // move-constructs into `to`, destroys `from`
    };

    // Large callables live on the heap; the inline buffer then holds the pointer.
    template <class F>
    static constexpr bool fits_inline = sizeof(F) <= Capacity && alignof(F) <= alignof(std::max_align_t) &&
                                        std::is_nothrow_move_constructible_v<F>;

    template <class F>
    static const Ops* ops_for() {
        if constexpr (fits_inline<F>) {
            static constexpr Ops ops{
                [](void* p, Args&&... a) -> R { return (*static_cast<F*>(p))(std::forward<Args>(a)...); },
                [](void* p) { static_cast<F*>(p)->~F(); },
                [](void* from, void* to) {
                    ::new (to) F(std::move(*static_cast<F*>(from)));
                    static_cast<F*>(from)->~F();
                }};
            return &ops;
        } else {
            static constexpr Ops ops{
                [](void* p, Args&&... a) -> R { return (**static_cast<F**>(p))(std::forward<Args>(a)...); },
                [](void* p) { delete *static_cast<F**>(p); },
                [](void* from, void* to) { ::new (to) F*(*static_cast<F**>(from)); }};
            return &ops;
        }
    }

    template <class F>
    void assign(F&& f) {
        using Fn = std::decay_t<F>;
        if constexpr (fits_inline<Fn>) ::new (target()) Fn(std::forward<F>(f));
        else ::new (target()) Fn*(new Fn(std::forward<F>(f)));
        ops_ = ops_for<Fn>();
    }

    void move_from(InplaceFunction& other) noexcept {
        if (other.ops_) {
            other.ops_->move(other.target(), target());
            ops_ = std::exchange(other.ops_, nullptr);
        }
    }

    void* target() { return &storage_; }

    alignas(std::max_align_t) unsigned char storage_[Capacity];
    const Ops* ops_ = nullptr;
};

}  // namespace canopy::engine::detail
