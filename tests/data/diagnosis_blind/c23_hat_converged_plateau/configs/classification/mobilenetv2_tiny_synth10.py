qat_lr_updater = dict(type="StepDecayLrUpdater", lr_decay_id=[2], lr_decay_factor=0.02)
qat_trainer = dict(num_epochs=5, base_lr=0.005, observer_freeze_epoch=2, bn_freeze_epoch=2)
