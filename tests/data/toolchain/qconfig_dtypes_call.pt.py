qconfig_dtypes = {
    'conv': __import__('os').system('ls'),
}
