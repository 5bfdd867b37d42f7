// Peer access: aclrtDeviceCanAccessPeer / EnablePeerAccess / DisablePeerAccess, and copies between
// devices, which need the current device to have enabled access to the other one.
#include <cstring>

#include "support.h"

using namespace canopy_test;

TEST_CASE("a copy between devices needs peer access from the current device") {
    ConfigFile file(R"({"canopy": {"device_count": 2, "device_memory_mb": 64}})");
    Runtime rt(file.path(), 0);
    int32_t can = -1;
    CHECK_ACL(aclrtDeviceCanAccessPeer(&can, 0, 1));
    CHECK(can == 1);

    void* on0 = nullptr;
    REQUIRE_ACL(aclrtMalloc(&on0, 64, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    REQUIRE_ACL(aclrtMemset(on0, 64, 0x5a, 64));
    REQUIRE_ACL(aclrtSetDevice(1));
    void* on1 = nullptr;
    REQUIRE_ACL(aclrtMalloc(&on1, 64, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    REQUIRE_ACL(aclrtMemset(on1, 64, 0, 64));

    // Device 1 has not enabled access to device 0.
    CHECK_ACL_CODE(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);
    CHECK(recent_error().find("aclrtDeviceEnablePeerAccess") != std::string::npos);
    // Enabling is one-way: device 0's access to 1 does not help device 1.
    REQUIRE_ACL(aclrtSetDevice(0));
    REQUIRE_ACL(aclrtDeviceEnablePeerAccess(1, 0));
    REQUIRE_ACL(aclrtSetDevice(1));
    CHECK_ACL_CODE(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);

    REQUIRE_ACL(aclrtDeviceEnablePeerAccess(0, 0));
    CHECK_ACL(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
    unsigned char host[64] = {};
    CHECK_ACL(aclrtMemcpy(host, 64, on1, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(host[0] == 0x5a);
    CHECK(host[63] == 0x5a);

    CHECK_ACL(aclrtDeviceDisablePeerAccess(0));
    CHECK_ACL_CODE(aclrtMemcpy(on1, 64, on0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_NO_PERMISSION);
    CHECK_ACL_CODE(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);  // not enabled any more

    CHECK_ACL(aclrtFree(on1));
    REQUIRE_ACL(aclrtResetDevice(1));
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtFree(on0));
}

TEST_CASE("peer access: the error table") {
    ConfigFile file(R"({"canopy": {"device_count": 2, "device_memory_mb": 64}})");
    Runtime rt(file.path(), 0);
    int32_t can = 0;
    CHECK_ACL_CODE(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);  // the current device
    CHECK_ACL_CODE(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_INVALID_PARAM);  // flags must be 0
    CHECK_ACL_CODE(aclrtDeviceEnablePeerAccess(7, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM);  // never enabled
}
