#pragma once
// A context belongs to one device and owns a default stream (used wherever an API takes a NULL
// stream). The default stream does not synchronize implicitly with other streams.
#include <memory>

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

private:
    Device& device_;
    std::unique_ptr<Stream> default_stream_;
};

}  // namespace canopy::engine
