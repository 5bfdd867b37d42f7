// The custom allocator (acl/acl_rt_allocator.h): descriptors of a program's own allocator and
// their registration per stream. CANN's consumers of a registered allocator are its single-operator
// and dynamic-shape model executors, which allocate their workspaces through it; Canopy keeps the
// registration so that its own consumers (and the program, through aclrtAllocatorGetByStream) reach
// the same callbacks. A registration keeps a copy of the descriptor's callbacks, so the descriptor
// may be destroyed once registered.
#include <iterator>
#include <map>
#include <memory>
#include <set>

#include "acl/acl_rt_allocator.h"
#include "api.h"

namespace canopy::api {

namespace {

struct AllocatorDesc {
    aclrtAllocator object = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free = nullptr;
    aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc address_of = nullptr;
};

struct Registered {
    aclrtAllocatorDesc handle;
    AllocatorDesc callbacks;
};

struct Allocators {
    std::mutex mutex;
    std::set<AllocatorDesc*> descriptors;  // descriptors outlive a runtime, as CANN's do
};

Allocators& allocators() {
    static Allocators table;
    return table;
}

// Runs `body` on the live descriptor under the table's lock.
template <class Body>
void with_desc(aclrtAllocatorDesc handle, Body&& body) {
    require(handle, "allocatorDesc");
    Allocators& table = allocators();
    std::lock_guard lock(table.mutex);
    auto* desc = static_cast<AllocatorDesc*>(handle);
    if (!table.descriptors.count(desc))
        fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc " + describe(handle) + " is not a live allocator descriptor");
    body(*desc);
}

// The handle under which a stream argument is registered (NULL is not allowed).
void* stream_key(State& state, aclrtStream stream) {
    require(stream, "stream");
    stream_handle(state, stream, "stream");
    return stream;
}

}  // namespace

// The runtime's registrations, by stream handle (a destroyed stream's handle never recurs within a
// runtime). Read and written under the allocators' mutex.
struct AllocatorRegistrations {
    std::map<void*, Registered> by_stream;
};

namespace {

AllocatorRegistrations& registrations(State& state) {
    if (!state.allocator_registrations) state.allocator_registrations = std::make_shared<AllocatorRegistrations>();
    return *state.allocator_registrations;
}

// Drops the registrations of streams destroyed since (a stream's destroy does not know of them), so
// the table holds at most the live streams and the one being registered.
void drop_destroyed_streams(State& state, AllocatorRegistrations& table) {
    for (auto it = table.by_stream.begin(); it != table.by_stream.end();) {
        const PinScope pins;
        bool live = true;
        try {
            stream_handle(state, it->first, "stream");
        } catch (const Error&) {
            live = false;
        }
        it = live ? std::next(it) : table.by_stream.erase(it);
    }
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
    auto* desc = new (std::nothrow) AllocatorDesc();
    if (!desc) return nullptr;
    Allocators& table = allocators();
    std::lock_guard lock(table.mutex);
    table.descriptors.insert(desc);
    return desc;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
    return call("aclrtAllocatorDestroyDesc", [&] {
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) {
            allocators().descriptors.erase(&desc);
            delete &desc;
        });
    });
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
    return call("aclrtAllocatorSetObjToDesc", [&] {
        require(allocator, "allocator");
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) { desc.object = allocator; });
    });
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
    return call("aclrtAllocatorSetAllocFuncToDesc", [&] {
        require(reinterpret_cast<void*>(func), "func");
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) { desc.alloc = func; });
    });
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
    return call("aclrtAllocatorSetFreeFuncToDesc", [&] {
        require(reinterpret_cast<void*>(func), "func");
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) { desc.free = func; });
    });
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
    return call("aclrtAllocatorSetAllocAdviseFuncToDesc", [&] {
        require(reinterpret_cast<void*>(func), "func");
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) { desc.alloc_advise = func; });
    });
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
    return call("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", [&] {
        require(reinterpret_cast<void*>(func), "func");
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) { desc.address_of = func; });
    });
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
    return call("aclrtAllocatorRegister", [&] {
        State& s = state();
        void* key = stream_key(s, stream);
        with_desc(allocatorDesc, [&](AllocatorDesc& desc) {
            if (!desc.object) fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc has no allocator object (aclrtAllocatorSetObjToDesc)");
            if (!desc.alloc) fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc has no alloc function (aclrtAllocatorSetAllocFuncToDesc)");
            if (!desc.free) fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc has no free function (aclrtAllocatorSetFreeFuncToDesc)");
            if (!desc.address_of) {
                fail(ACL_ERROR_INVALID_PARAM,
                     "allocatorDesc has no get-address function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)");
            }
            AllocatorRegistrations& table = registrations(s);
            drop_destroyed_streams(s, table);
            table.by_stream[key] = Registered{allocatorDesc, desc};
        });
    });
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
                                   aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
    return call("aclrtAllocatorGetByStream", [&] {
        require(allocatorDesc, "allocatorDesc");
        require(allocator, "allocator");
        require(allocFunc, "allocFunc");
        require(freeFunc, "freeFunc");
        require(allocAdviseFunc, "allocAdviseFunc");
        require(getAddrFromBlockFunc, "getAddrFromBlockFunc");
        State& s = state();
        void* key = stream_key(s, stream);
        std::lock_guard lock(allocators().mutex);
        AllocatorRegistrations& table = registrations(s);
        auto it = table.by_stream.find(key);
        if (it == table.by_stream.end())
            fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) + " has no registered allocator (aclrtAllocatorRegister)");
        const AllocatorDesc& callbacks = it->second.callbacks;
        *allocatorDesc = it->second.handle;
        *allocator = callbacks.object;
        *allocFunc = callbacks.alloc;
        *freeFunc = callbacks.free;
        *allocAdviseFunc = callbacks.alloc_advise;
        *getAddrFromBlockFunc = callbacks.address_of;
    });
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
    return call("aclrtAllocatorUnregister", [&] {
        State& s = state();
        void* key = stream_key(s, stream);
        std::lock_guard lock(allocators().mutex);
        if (registrations(s).by_stream.erase(key) == 0)
            fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) + " has no registered allocator (aclrtAllocatorRegister)");
    });
}

}  // extern "C"
