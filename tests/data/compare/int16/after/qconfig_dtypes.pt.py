# QconfigSetter: configured dtypes per module (input / weight / output)
qconfig_dtypes = {
    'quant': {'input': [qint8], 'output': qint8},
    'conv1': {'input': [qint8], 'weight': qint8, 'output': qint16},
    'conv2': {'input': [qint8], 'weight': qint8, 'output': qint16},
    'add': {'input': [qint8], 'output': qint16},
    'fc': {'input': [qint8], 'weight': qint8, 'output': None},
}
