// How deeply an ONNX file nests graphs inside graphs (If / Loop / Scan bodies), read from the
// protobuf wire format without parsing it into objects: when the real parser gives up, this
// tells a model nested past the parser's depth limit apart from a corrupt file.
#pragma once

#include <string_view>

namespace qatdoctor::core::model {

// The protobuf parser's depth limit, in nested messages. A model is one level, its graph a
// second, each node, attribute and subgraph one more: a subgraph costs three levels, so this
// allows about 330 graphs in graphs (real exports nest a handful; protobuf's default of 100
// stops at 33). Deeper parses cost stack: about 1 MiB at this limit.
inline constexpr int kMaxOnnxNesting = 1000;

// The deepest chain of messages model -> graph -> node -> attribute -> graph ... in bytes (a
// serialized ModelProto), counted as the parser counts its depth; stops counting past limit.
// -1 when the bytes do not follow the wire format along that chain.
int onnxNestingDepth(std::string_view bytes, int limit = kMaxOnnxNesting + 1);

}  // namespace qatdoctor::core::model
