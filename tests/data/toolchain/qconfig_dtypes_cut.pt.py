{
    'conv': {'input': [qint8], 'output': qint16},
    'fc': {'in