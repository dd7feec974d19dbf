// A model of `nodes` Conv/Relu nodes in one chain, written by a test the way a very large export
// is shaped: names "/stage<k>/block<j>/conv/Conv" (or bare "node_<i>" when modules is 0), a
// real 1x4x8x8 input and tiny weights. Big graphs test the layout's bounds without a fixture
// file of tens of megabytes.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace qatdoctor::test {

inline std::string chainModel(int nodes, int modules)
{
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    onnx::GraphProto* g = m.mutable_graph();
    g->set_name("chain");
    auto* in = g->add_input();
    in->set_name("t0");
    auto* type = in->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int d : {1, 4, 8, 8}) type->mutable_shape()->add_dim()->set_dim_value(d);
    onnx::TensorProto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    for (int d : {4, 4, 1, 1}) w->add_dims(d);
    for (int i = 0; i < 16; ++i) w->add_float_data(i % 5 == 0 ? 1.0f : 0.0f);
    for (int i = 0; i < nodes; ++i) {
        onnx::NodeProto* node = g->add_node();
        const bool conv = i % 2 == 0;
        node->set_op_type(conv ? "Conv" : "Relu");
        const std::string module =
            modules > 0 ? "/stage" + std::to_string(i % modules) + "/block" + std::to_string(i) : "";
        node->set_name(modules > 0 ? module + (conv ? "/conv/Conv" : "/act/Relu")
                                   : "node_" + std::to_string(i));
        node->add_input("t" + std::to_string(i));
        if (conv) node->add_input("w");
        node->add_output("t" + std::to_string(i + 1));
    }
    auto* out = g->add_output();
    out->set_name("t" + std::to_string(nodes));
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    std::string bytes;
    m.SerializeToString(&bytes);
    return bytes;
}

}  // namespace qatdoctor::test
