#include "canopy/engine/context.h"

#include <algorithm>
#include <iterator>

#include "canopy/engine/device.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

Context::Context(Device& device)
    : device_(device), default_stream_(std::make_unique<Stream>(*this, Stream::greatest_priority, 0)) {}

Context::~Context() { drain_retired(); }

void Context::retire(std::shared_ptr<Stream> stream) {
    std::vector<std::shared_ptr<Stream>> idle;
    {
        std::lock_guard lock(retired_mutex_);
        auto busy_end = std::partition(retired_.begin(), retired_.end(), [](const auto& s) { return !s->idle(); });
        idle.assign(std::make_move_iterator(busy_end), std::make_move_iterator(retired_.end()));
        retired_.erase(busy_end, retired_.end());
        retired_.push_back(std::move(stream));
    }
}

void Context::drain_retired() {
    std::vector<std::shared_ptr<Stream>> streams;
    {
        std::lock_guard lock(retired_mutex_);
        streams.swap(retired_);
    }
}

}  // namespace canopy::engine
