// A one-node ONNX model written by a test, the way a crafted file would be: graph inputs with
// declared shapes (float), initializers for the node's other inputs, attributes as given, and
// one or more graph outputs. Nothing is validated: that is the simulator's job.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace qatdoctor::test {

class HostileModel {
public:
    explicit HostileModel(const std::string& op, int64_t opset = 13)
    {
        m_model.set_ir_version(8);
        auto* o = m_model.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        onnx::NodeProto* node = m_model.mutable_graph()->add_node();
        node->set_op_type(op);
        node->set_name(op + "_hostile");
        m_model.mutable_graph()->set_name("hostile");
    }

    // A float graph input of the given shape, fed to the node's next input.
    HostileModel& input(const std::string& name, const std::vector<int64_t>& shape)
    {
        auto* vi = m_model.mutable_graph()->add_input();
        vi->set_name(name);
        auto* t = vi->mutable_type()->mutable_tensor_type();
        t->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
        mutableNode()->add_input(name);
        return *this;
    }
    // An int64 initializer fed to the node's next input.
    HostileModel& initInts(const std::string& name, const std::vector<int64_t>& dims,
                           const std::vector<int64_t>& values)
    {
        auto* t = m_model.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        for (int64_t d : dims) t->add_dims(d);
        for (int64_t v : values) t->add_int64_data(v);
        mutableNode()->add_input(name);
        return *this;
    }
    // A float initializer of the given dims, every element value.
    HostileModel& initFloats(const std::string& name, const std::vector<int64_t>& dims, float value)
    {
        int64_t n = 1;
        for (int64_t d : dims) n *= d;
        return initFloatValues(name, dims, std::vector<float>(static_cast<size_t>(n), value));
    }
    // A float initializer of the given dims and values.
    HostileModel& initFloatValues(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values)
    {
        auto* t = m_model.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims) t->add_dims(d);
        for (float v : values) t->add_float_data(v);
        mutableNode()->add_input(name);
        return *this;
    }
    // An omitted optional input.
    HostileModel& skipInput()
    {
        mutableNode()->add_input("");
        return *this;
    }
    HostileModel& ints(const std::string& name, const std::vector<int64_t>& values)
    {
        auto* a = mutableNode()->add_attribute();
        a->set_name(name);
        a->set_type(values.size() == 1 && isScalarAttribute(name) ? onnx::AttributeProto::INT
                                                                  : onnx::AttributeProto::INTS);
        if (a->type() == onnx::AttributeProto::INT)
            a->set_i(values[0]);
        else
            for (int64_t v : values) a->add_ints(v);
        return *this;
    }
    HostileModel& floats(const std::string& name, float value)
    {
        auto* a = mutableNode()->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(value);
        return *this;
    }
    HostileModel& string(const std::string& name, const std::string& value)
    {
        auto* a = mutableNode()->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(value);
        return *this;
    }
    // Routes the node's first input through QuantizeLinear -> DequantizeLinear (uint8, the given
    // scale, zero point 128), so that the integer mode sees a quantized operand.
    HostileModel& quantizeFirstInput(float scale)
    {
        onnx::NodeProto* node = mutableNode();
        if (node->input_size() == 0) return *this;
        const std::string x = node->input(0);
        auto* g = m_model.mutable_graph();
        auto* s = g->add_initializer();
        s->set_name(x + "_scale");
        s->set_data_type(onnx::TensorProto::FLOAT);
        s->add_float_data(scale);
        auto* zp = g->add_initializer();
        zp->set_name(x + "_zp");
        zp->set_data_type(onnx::TensorProto::UINT8);
        zp->add_int32_data(128);
        for (const char* op : {"QuantizeLinear", "DequantizeLinear"}) {
            auto* n = g->add_node();
            n->set_op_type(op);
            n->set_name(x + "_" + op);
            n->add_input(std::string(op) == "QuantizeLinear" ? x : x + "_q");
            n->add_input(x + "_scale");
            n->add_input(x + "_zp");
            n->add_output(std::string(op) == "QuantizeLinear" ? x + "_q" : x + "_dq");
        }
        mutableNode()->set_input(0, x + "_dq");
        return *this;
    }
    HostileModel& outputs(int n)
    {
        m_outputs = n;
        return *this;
    }

    const onnx::NodeProto& node() const { return m_model.graph().node(0); }

    std::string serialize() const
    {
        onnx::ModelProto m = m_model;
        for (int i = 0; i < m_outputs; ++i) {
            const std::string name = "y" + std::to_string(i);
            m.mutable_graph()->mutable_node(0)->add_output(name);
            auto* vi = m.mutable_graph()->add_output();
            vi->set_name(name);
            vi->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        }
        return m.SerializeAsString();
    }

private:
    // The node lives inside the model (copies of a HostileModel stay whole).
    onnx::NodeProto* mutableNode() { return m_model.mutable_graph()->mutable_node(0); }

    // Attributes ONNX declares as a single int (the others given one value stay lists).
    static bool isScalarAttribute(const std::string& name)
    {
        return name == "axis" || name == "keepdims" || name == "group" || name == "ceil_mode" ||
               name == "blocksize" || name == "count_include_pad" || name == "transA" || name == "transB";
    }

    onnx::ModelProto m_model;
    int m_outputs = 1;
};

}  // namespace qatdoctor::test
