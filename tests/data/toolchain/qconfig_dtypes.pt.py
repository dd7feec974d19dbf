# QconfigSetter: configured dtypes per module (input / weight / output)
qconfig_dtypes = {
    'quant': {'input': [torch.float32], 'output': qint8},
    'backbone.conv0': {'input': [qint8], 'weight': qint8, 'output': qint8},
    'neck.lateral.0': {'input': [qint8], 'weight': qint8, 'output': qint16},
    'merge_add': {'input': (qint16, qint8), 'output': qint16},
    "head.reg": {"input": ["qint8"], "weight": "qint16", "output": "qint16"},
    'dequant': {'input': [qint16], 'output': None},
}
