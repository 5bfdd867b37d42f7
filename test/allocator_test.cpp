// The custom allocator: descriptors, registration per stream, and the program's own callbacks
// reached through aclrtAllocatorGetByStream.
#include <cstdlib>

#include "acl/acl_rt_allocator.h"
#include "support.h"

using namespace canopy_test;

namespace {
struct Pool {
    int allocs = 0;
    int frees = 0;
    int advised = 0;
};
struct Block {
    void* address;
};
void* pool_alloc(aclrtAllocator allocator, size_t size) {
    ++static_cast<Pool*>(allocator)->allocs;
    return new Block{std::malloc(size)};
}
void pool_free(aclrtAllocator allocator, aclrtAllocatorBlock block) {
    ++static_cast<Pool*>(allocator)->frees;
    std::free(static_cast<Block*>(block)->address);
    delete static_cast<Block*>(block);
}
void* pool_advise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr) {
    ++static_cast<Pool*>(allocator)->advised;
    return pool_alloc(allocator, size);
}
void* pool_address(aclrtAllocatorBlock block) { return static_cast<Block*>(block)->address; }

aclrtAllocatorDesc full_desc(Pool& pool) {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    REQUIRE(desc != nullptr);
    REQUIRE_ACL(aclrtAllocatorSetObjToDesc(desc, &pool));
    REQUIRE_ACL(aclrtAllocatorSetAllocFuncToDesc(desc, pool_alloc));
    REQUIRE_ACL(aclrtAllocatorSetFreeFuncToDesc(desc, pool_free));
    REQUIRE_ACL(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, pool_advise));
    REQUIRE_ACL(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, pool_address));
    return desc;
}
}  // namespace

TEST_CASE("a registered allocator's callbacks are the stream's, and reach the program's allocator") {
    Runtime runtime;
    Stream stream;
    Pool pool;
    aclrtAllocatorDesc desc = full_desc(pool);
    REQUIRE_ACL(aclrtAllocatorRegister(stream, desc));
    aclrtAllocatorDesc got_desc = nullptr;
    aclrtAllocator allocator = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free_block = nullptr;
    aclrtAllocatorAllocAdviseFunc advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc address = nullptr;
    REQUIRE_ACL(aclrtAllocatorGetByStream(stream, &got_desc, &allocator, &alloc, &free_block, &advise, &address));
    CHECK(got_desc == desc);
    CHECK(allocator == &pool);
    // The descriptor may go once registered: the registration keeps its callbacks.
    REQUIRE_ACL(aclrtAllocatorDestroyDesc(desc));
    aclrtAllocatorBlock block = alloc(allocator, 64);
    REQUIRE(address(block) != nullptr);
    static_cast<char*>(address(block))[63] = 1;
    free_block(allocator, block);
    free_block(allocator, advise(allocator, 32, nullptr));
    CHECK(pool.allocs == 2);
    CHECK(pool.advised == 1);
    CHECK(pool.frees == 2);
    REQUIRE_ACL(aclrtAllocatorUnregister(stream));
    CHECK_ACL_CODE(aclrtAllocatorGetByStream(stream, &got_desc, &allocator, &alloc, &free_block, &advise, &address),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtAllocatorUnregister(stream), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("the last registration on a stream wins; streams are separate") {
    Runtime runtime;
    Stream first, second;
    Pool a, b;
    aclrtAllocatorDesc desc_a = full_desc(a), desc_b = full_desc(b);
    REQUIRE_ACL(aclrtAllocatorRegister(first, desc_a));
    REQUIRE_ACL(aclrtAllocatorRegister(first, desc_b));
    REQUIRE_ACL(aclrtAllocatorRegister(second, desc_a));
    aclrtAllocatorDesc desc = nullptr;
    aclrtAllocator allocator = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free_block = nullptr;
    aclrtAllocatorAllocAdviseFunc advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc address = nullptr;
    REQUIRE_ACL(aclrtAllocatorGetByStream(first, &desc, &allocator, &alloc, &free_block, &advise, &address));
    CHECK(allocator == &b);
    REQUIRE_ACL(aclrtAllocatorGetByStream(second, &desc, &allocator, &alloc, &free_block, &advise, &address));
    CHECK(allocator == &a);
    REQUIRE_ACL(aclrtAllocatorUnregister(first));
    REQUIRE_ACL(aclrtAllocatorUnregister(second));
    REQUIRE_ACL(aclrtAllocatorDestroyDesc(desc_a));
    REQUIRE_ACL(aclrtAllocatorDestroyDesc(desc_b));
}

TEST_CASE("registrations belong to the runtime: after aclFinalize and aclInit a new stream has none") {
    Pool pool;
    aclrtAllocatorDesc desc = full_desc(pool);
    aclrtStream before = nullptr;
    {
        Runtime runtime;
        REQUIRE_ACL(aclrtCreateStream(&before));
        REQUIRE_ACL(aclrtAllocatorRegister(before, desc));
        // Left registered: the runtime's end takes the registration with it.
    }
    Runtime runtime;
    aclrtStream after = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&after));
    // The new runtime's first stream may well reuse the handle of the old one.
    INFO("before " << before << ", after " << after);
    aclrtAllocatorDesc got_desc = nullptr;
    aclrtAllocator allocator = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free_block = nullptr;
    aclrtAllocatorAllocAdviseFunc advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc address = nullptr;
    CHECK_ACL_CODE(aclrtAllocatorGetByStream(after, &got_desc, &allocator, &alloc, &free_block, &advise, &address),
                   ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("has no registered allocator") != std::string::npos);
    REQUIRE_ACL(aclrtDestroyStream(after));
    REQUIRE_ACL(aclrtAllocatorDestroyDesc(desc));
}

TEST_CASE("allocator calls check their arguments") {
    Runtime runtime;
    Stream stream;
    Pool pool;
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    CHECK_ACL_CODE(aclrtAllocatorSetObjToDesc(nullptr, &pool), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtAllocatorSetObjToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtAllocatorSetAllocFuncToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
    int not_a_desc = 0;
    CHECK_ACL_CODE(aclrtAllocatorSetAllocFuncToDesc(&not_a_desc, pool_alloc), ACL_ERROR_INVALID_PARAM);
    // Incomplete descriptors cannot be registered.
    CHECK_ACL_CODE(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtAllocatorSetObjToDesc(desc, &pool));
    REQUIRE_ACL(aclrtAllocatorSetAllocFuncToDesc(desc, pool_alloc));
    REQUIRE_ACL(aclrtAllocatorSetFreeFuncToDesc(desc, pool_free));
    CHECK_ACL_CODE(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclGetRecentErrMsg()).find("get-address") != std::string::npos);
    REQUIRE_ACL(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, pool_address));
    CHECK_ACL_CODE(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtAllocatorRegister(reinterpret_cast<aclrtStream>(0x31), desc), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtAllocatorRegister(stream, desc));  // the advise function is optional
    REQUIRE_ACL(aclrtAllocatorUnregister(stream));
    REQUIRE_ACL(aclrtAllocatorDestroyDesc(desc));
    CHECK_ACL_CODE(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
}
