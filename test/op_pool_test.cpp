// The device's pool of operation nodes: a finished operation's node serves any stream of the
// device, so a destroyed stream's memory is reused at once rather than kept until a reset. Uses
// the engine directly, to read the pool's size.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "canopy/engine/stream.h"

TEST_CASE("a destroyed stream's operation nodes serve the device's next stream") {
    namespace engine = canopy::engine;
    engine::RuntimeConfig config;
    config.workers_per_device = 2;
    engine::Device device(0, config);
    constexpr int kQueued = 2000;
    auto fill = [&](engine::Stream& stream) {
        std::atomic<bool> open{false};
        stream.enqueue(engine::Operation{engine::OpKind::host_func, 0, nullptr, [&open](engine::OpRun&) {
                                     const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
                                     while (!open && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
                                 }});
        for (int i = 0; i < kQueued; ++i) stream.enqueue(engine::Operation{engine::OpKind::host_func, 0, nullptr, [](engine::OpRun&) {}});
        open = true;
        stream.synchronize();
    };
    {
        engine::Stream first_stream(device.primary_context(), 0, 0);
        fill(first_stream);
    }
    const std::size_t after_first = device.operation_nodes();
    CHECK(after_first >= static_cast<std::size_t>(kQueued));
    {
        engine::Stream second_stream(device.primary_context(), 0, 0);
        fill(second_stream);
    }
    // Nodes parked in the workers' local free lists may be missed: a few batches at most.
    CHECK(device.operation_nodes() <= after_first + kQueued / 4);
}
