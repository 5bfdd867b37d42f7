#include "canopy/engine/context.h"

#include <utility>

#include "canopy/engine/device.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

Context::Context(Device& device)
    : device_(device), default_stream_(std::make_unique<Stream>(*this, Stream::greatest_priority, 0)) {}

Context::~Context() { drain_retired(); }

void Context::destroy_all(std::shared_ptr<Stream> list) {
    // One by one (each waits for its work), not recursively through the links.
    while (list) list = std::exchange(list->next_retired_, nullptr);
}

void Context::retire(std::shared_ptr<Stream> stream) {
    std::shared_ptr<Stream> idle;
    {
        std::lock_guard lock(retired_mutex_);
        for (std::shared_ptr<Stream>* link = &retired_; *link;) {
            if (!(*link)->idle()) {
                link = &(*link)->next_retired_;
                continue;
            }
            std::shared_ptr<Stream> finished = std::move(*link);
            *link = std::move(finished->next_retired_);
            finished->next_retired_ = std::move(idle);
            idle = std::move(finished);
        }
        stream->next_retired_ = std::move(retired_);
        retired_ = std::move(stream);
    }
    destroy_all(std::move(idle));
}

void Context::drain_retired() {
    std::shared_ptr<Stream> streams;
    {
        std::lock_guard lock(retired_mutex_);
        streams = std::move(retired_);
    }
    destroy_all(std::move(streams));
}

}  // namespace canopy::engine
