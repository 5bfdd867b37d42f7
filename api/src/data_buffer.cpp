// aclDataBuffer: an address and a size that programs hand around to describe memory they own.
// Creating one needs no aclInit, as in CANN. Live buffers are remembered so that a pointer that is
// not one (or one destroyed already) is refused instead of being dereferenced.
#include <unordered_set>

#include "api.h"

struct aclDataBuffer {
    void* data;
    size_t size;
};

namespace canopy::api {

namespace {

std::mutex buffers_mutex;
std::unordered_set<const aclDataBuffer*>& live_buffers() {
    static std::unordered_set<const aclDataBuffer*> buffers;
    return buffers;
}

void check_contents(const void* data, std::size_t size) {
    if (data == nullptr && size != 0) {
        fail(ACL_ERROR_INVALID_PARAM, "data is NULL with size " + std::to_string(size) +
                                          " (an empty buffer has data NULL and size 0)");
    }
}

// The buffer itself, or ACL_ERROR_INVALID_PARAM naming the argument.
const aclDataBuffer& live_buffer(const aclDataBuffer* buffer) {
    require(buffer, "dataBuffer");
    std::lock_guard lock(buffers_mutex);
    if (!live_buffers().contains(buffer)) {
        fail(ACL_ERROR_INVALID_PARAM, "dataBuffer " + describe(buffer) +
                                          " is not an aclDataBuffer from aclCreateDataBuffer (or was destroyed)");
    }
    return *buffer;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy::api;

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
    aclDataBuffer* created = nullptr;
    call("aclCreateDataBuffer", [&] {
        check_contents(data, size);
        auto buffer = std::make_unique<aclDataBuffer>(aclDataBuffer{data, size});
        std::lock_guard lock(buffers_mutex);
        live_buffers().insert(buffer.get());
        created = buffer.release();
    });
    return created;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
    return call("aclDestroyDataBuffer", [&] {
        require(dataBuffer, "dataBuffer");
        std::lock_guard lock(buffers_mutex);
        if (live_buffers().erase(dataBuffer) == 0) {
            fail(ACL_ERROR_INVALID_PARAM, "dataBuffer " + describe(dataBuffer) +
                                              " is not an aclDataBuffer from aclCreateDataBuffer (or was destroyed)");
        }
        delete dataBuffer;
    });
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
    return call("aclUpdateDataBuffer", [&] {
        live_buffer(dataBuffer);
        check_contents(data, size);
        *dataBuffer = aclDataBuffer{data, size};
    });
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
    void* data = nullptr;
    call("aclGetDataBufferAddr", [&] { data = live_buffer(dataBuffer).data; });
    return data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
    uint32_t size = 0;
    call("aclGetDataBufferSize", [&] {
        const std::size_t bytes = live_buffer(dataBuffer).size;
        if (bytes > UINT32_MAX) {
            fail(ACL_ERROR_INVALID_PARAM, "the buffer's " + std::to_string(bytes) +
                                              " bytes do not fit in uint32_t; use aclGetDataBufferSizeV2");
        }
        size = static_cast<uint32_t>(bytes);
    });
    return size;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
    size_t size = 0;
    call("aclGetDataBufferSizeV2", [&] { size = live_buffer(dataBuffer).size; });
    return size;
}

}  // extern "C"
