#pragma once
// A context belongs to one device and owns a default stream (used wherever an API takes a NULL
// stream). The default stream does not synchronize implicitly with other streams.
#include <memory>
#include <mutex>

namespace canopy::engine {

class Device;
class Stream;

class Context {
public:
    explicit Context(Device& device);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    Device& device() const { return device_; }
    Stream& default_stream() const { return *default_stream_; }

    // aclrtDestroyStreamForce: the stream's handle is gone but the work already enqueued still
    // runs, as on the device where it is queued in hardware. The context keeps the stream until it
    // is idle (or the context goes away, which waits for it); finished ones are let go of here.
    // Never allocates: the handle is already gone when it is called.
    void retire(std::shared_ptr<Stream> stream);
    // Waits for every retired stream and destroys it (before the device's memory is released).
    void drain_retired();

private:
    static void destroy_all(std::shared_ptr<Stream> list);

    Device& device_;
    std::unique_ptr<Stream> default_stream_;
    std::mutex retired_mutex_;
    std::shared_ptr<Stream> retired_;  // a list linked through Stream::next_retired_
};

}  // namespace canopy::engine
