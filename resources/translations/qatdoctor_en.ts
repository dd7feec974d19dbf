<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ProgressText</name>
    <message>
        <source>reading %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parsing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parsed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hashing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>building the layer table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>building %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>report built</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>propagating dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placing nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grouping nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer table built</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indexing graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>graph indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>graph laid out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: fake-quant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: integer, other rounding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: integer, unchanged model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>simulating: what-if int16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>colour forms: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>granularity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-channel, axis %1, %2 channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>zero point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scale from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YUV444 (centered)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ArtifactsPage</name>
    <message>
        <source>Debug files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No toolchain debug files are loaded.

Open or drop model_check_result.txt, compare_per_layer_out.txt / .csv, *_sensitive_ops.txt, statistic.txt, similarity.txt, weight_comparison.txt or deploy_device.txt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line in the source file</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) while reading this file:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A and B have no debug table of one kind (per-layer comparison, sensitivity, statistics…) to compare row by row.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::AutoAnswerPanel</name>
    <message>
        <source>Answered from your data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to this question and answer it yourself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click (or Enter) to show this place</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CheckpointsPage</name>
    <message>
        <source>Checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the tensors that are byte-identical in both checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checkpoint is loaded.

Open or drop torch.save files (.pt, .pth, .ckpt, .bin): one to see its quantizers, two or more (calibration, QAT…) to see what changed between them. They are read without Python and never executed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n tensor(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>What changed: %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (%2 container, %n tensor(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Model under the key &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Security:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the pickle names %1; torch.load would run it. QAT Doctor did not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Observed range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %2&lt;br&gt;%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running statistic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reshaped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>averaging constant %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bit widths are not saved in this checkpoint (quant_min / quant_max are attributes, kept only when the whole model is saved); scales and zero points are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dtype (weight / output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fake quant (weight / output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Observer (weight / output)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CodeBlockView</name>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the code to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ComparisonView</name>
    <message>
        <source>Changed only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only rows whose configuration changed, whose metric moved, or that one side lacks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A | B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; (open): %1 &amp;nbsp;→&amp;nbsp; &lt;b&gt;B&lt;/b&gt; (compared with): %2&lt;br&gt;%3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CurvePlot</name>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wall time (hours)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step (QAT after float)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QAT − float</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) off the scale</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CurvesPage</name>
    <message>
        <source>Training curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QAT after float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x axis; &quot;QAT after float&quot; places QAT&apos;s step 0 at float&apos;s last step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing (TensorBoard&apos;s debiased exponential moving average); the raw curve stays faint behind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Box zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watch folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-read appended lines and new files of the log folder as training writes them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each checked metric is one plot; the plots share the x axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) while reading the logs (see Overview)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Guessed from: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explain this reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the source lines…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How this run was read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y: auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y: linear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y: log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto: a chart whose values span more than three decades is drawn on a log scale; a few far outliers are left off the scale (and counted) so they do not flatten the rest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QAT − float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adds, per chart, each QAT run minus the float run at equal steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter runs (text or regex)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf);;Visible series as CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untick to hide; right-click: explain this reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loaded logs hold no metric series (see Overview for how they were read).
Open a training log folder with loss or accuracy lines: File ▸ Open log folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No training logs loaded.
Open a training log folder (File ▸ Open log folder…) or drop log files here to see float, calibration, QAT and quantized curves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>crash (traceback)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>live: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FindingsModel</name>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QAT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>● live %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointColourPanel</name>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer (deployed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fake-quant (QAT)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pixels (0..255, or -128..127 for centered YUV) are multiplied by this before the model, as the training normalization did; 1/128 is horizon&apos;s convention for centered YUV444.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model trained on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pixel scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick an image as the input (Input file...) to see what feeding it in the wrong colour form does: the board takes centered YUV444, a model trained on RGB (or the reverse) is wrong from its first layer on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image %1: press Compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing colour forms on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour comparison failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantization only: SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 fed as %2: SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cosine (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max error (%1, LSB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Model trained on %1, fed %2&lt;/b&gt; (%3 mode).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output SQNR: %1 dB with the wrong colour form against %2 dB from quantization alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two forms agree on every layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First layer where they part: &lt;b&gt;%1&lt;/b&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-1 class unchanged (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-1 class changes: %1 -&gt; %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointDatasetPanel</name>
    <message>
        <source>Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save result...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float, fake-quant and integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer only (fastest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Integer only gives the simulated deployment accuracy; all three modes also show where it is lost (quantization or the fixed-point arithmetic).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A .npy batch of the model&apos;s input (read a sample at a time) or a .pb file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder of .npy / .pb samples, or of images in one folder per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A .npy of one integer class per sample, in sample order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples (*.npy *.pb);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels (*.npy);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save evaluation result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluating...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluating on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worst samples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  label %1, fake-quant %2, integer %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples in %2 s (%3 samples/s, %4 thread(s)).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLayerPlot</name>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fake vs int</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float vs fake</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float vs int</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
accumulator overflows: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first bad: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLayerTable</name>
    <message>
        <source>fake-quant vs integer (what deployment changes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float vs fake-quant (what quantization costs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float vs integer (both)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L1 (mean |err|)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max abs err</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max err (LSB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overflows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest error in steps of the layer&apos;s output scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer-mode outputs whose accumulator passed int32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what-if: this layer&apos;s quantizers at 16 bits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what-if: this layer computed in float</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLutPlot</name>
    <message>
        <source>input (real)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|table - function|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-entry table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointPage</name>
    <message>
        <source>Fixed-point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank layers for int16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float multiply (reference runtimes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>threads </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int16 sensitivity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look-up tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input: random values (seed 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load an ONNX model exported from QAT (QuantizeLinear/DequantizeLinear form) to simulate float, fake-quant and integer inference layer by layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: %1. Simulate runs it as float (quantizers removed), fake-quant (= ONNX Runtime, the QAT model) and integer (= the deployed model) on the same input.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulating %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulation failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fake-quant and integer agree on every layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;First layer where fake-quant and integer part: %1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output SQNR, integer vs float: %1 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Float vs fixed-point requantization: %1 LSB at the output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 op(s) fell back to float in integer mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output SQNR at int16 (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gain (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No findings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No layer with a constant weight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight SQNR: int8 per-tensor %1 dB, int8 per-channel %2 dB, int16 per-channel %3 dB%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, the model&apos;s own quantizer %1 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image as RGB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image as BGR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image as YUV444 (centered)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How an image input is fed: the board takes centered YUV444; a model trained on RGB fed YUV444 (or the reverse) shows here as a large float-vs-int error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs (*.npy *.pb *.png *.jpg *.jpeg *.bmp);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RGB vs YUV444</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run with the ticked layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if: tick layers at int16 or in float, then</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (what-if: %1 layer(s) at int16, %2 in float; unchanged model %3 dB, gain %4 dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not ranked in this run. Tick &quot;Rank layers for int16&quot; and simulate: every layer is run once more at int16, and the layers are ranked by the output SQNR that gains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each layer alone at int16, best gain first: the layers worth 16 bits on the board.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No look-up-table op in this model (Sigmoid, Tanh, Exp, Softmax, Gelu, ...):
nothing here turns into a table on export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figures cover %1 input samples of the batch; the sensitivity ranking is the first sample&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixed point, ties to even</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixed point, ties away from zero</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixed point, ties up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the integer mode requantizes accumulators. Reference runtimes multiply in float and round ties to even; integer hardware multiplies and shifts, and boards differ in how they round ties. Change it and simulate again: the summary names the layers whose integer results changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requantization %1 → %2: no layer&apos;s integer result changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requantization %1 → %2: the integer results of %3 of %4 layers changed: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fake-quant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 ms  </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-1 of the float, fake-quant and integer modes over an evaluation set: the simulated deployment accuracy, a rung of the stage ladder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate on a dataset</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::GraphView</name>
    <message>
        <source>Fold quantizers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search nodes (Enter = next)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No grouping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group by module, depth %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide Quantize/Dequantize, Constant and Identity nodes; edges then show the quantized dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No graph for this source (%1 is a %2, not a model graph).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out the graph…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out the model graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 nodes drawn, %2 edges, %3 quantizer/constant nodes folded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 nodes are too many to draw one by one: drawn in groups of %L2 consecutive nodes (the Layers tab lists every one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 nodes are too many to draw one by one: grouped by module, depth %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::InputsModel</name>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size / layers</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::JobStatus</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop this work (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LadderStrip</name>
    <message>
        <source>95%: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LayerDetails</name>
    <message>
        <source>this layer has no weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights are not available for this source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading weights of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a layer to see its quantization parameters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight quantizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not quantized in this graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output quantizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output not quantized (high precision).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in wizard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a layer to see its weights against the quantization grid</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LayerTableModel</name>
    <message>
        <source>Click to open the wizard on this topic.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Granularity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight scales</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>double-click: open in wizard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LiveWatchSession</name>
    <message>
        <source>No log folder loaded to watch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watching %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::MainWindow</name>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo data is missing from %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Loading %n input(s)…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Loaded %n input(s), %1 finding(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>nothing open</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n input(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;log folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;model or debug file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste printed model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+V</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About QAT Doctor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open training log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model, log or debug file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot keep the pasted text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QAT Doctor session (*.qatdoctor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;QAT Doctor %1&lt;/h3&gt;&lt;p&gt;A troubleshooting assistant for quantization-aware training: training curves, model dtypes, fixed-point simulation and the FAQ as a guided wizard.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About QAT Doctor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the session failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>An analysis is open (%n input(s)). Replace it with what you open, or add to it?</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add to this analysis…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to this analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logs, models and debug files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models, checkpoints and debug files (*.onnx *.pt *.pth *.ckpt *.bin *.txt *.csv *.log *.jsonl *.json);;QAT Doctor session (*.qatdoctor);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compared with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compared with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare with…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a second attempt (B, after a change) next to this one (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F&amp;ile…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop comparing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the attempt to compare with…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with folder (B, after the change)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with file (B, after the change)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training problem: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (desktop notified: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live: %1 — %2%3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ModelPage</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flagged only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter layers (name, op, dtype, flag, finding)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;No model loaded.&lt;/b&gt; Open an exported ONNX model (or a printed model) to see its per-layer dtypes and quantization findings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, opset %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — %1 layers, %2 flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 more models loaded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected dtypes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module name -&gt; dtype you configured (e.g. int16); layers whose actual dtype differs are flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON object of module name -&gt; dtype (int8, int16, float32, ...):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown dtype for %1: &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-running checks with the expected dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neither side has a model or a checkpoint of one form to compare layer by layer.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::OverviewPage</name>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs (double-click a role to correct it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the curve at the step, or the model at the layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in wizard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a training log folder, a model or toolchain files to start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 error(s), %2 warning(s), %3 note(s); %4 check(s) ran on %5 run(s) and %6 model(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a finding to see its explanation and evidence.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no FAQ topic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAQ topic %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n check(s) not run: see what they need</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Strength:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data recovered by itself: listed, but not counted in the verdict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These checks had no data to run on: their answer is unknown, not clear. Load what each needs to have it checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove from this analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>, %n checkpoint(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did the changes take effect?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No configuration change the comparison can judge: no layer&apos;s dtype, output precision or quantizer sharing changed, and no debug table or run moved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing new so far: findings appear here the moment the logs show them</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n new finding(s) while the run was written; latest: %1</source>
        <translation>
            <numerusform>%n new finding while the run was written: %1</numerusform>
            <numerusform>%n new findings while the run was written; latest: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Watch folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the log folder while training writes it: findings appear the moment the logs show them, and an error reaches the desktop</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::PasteModelDialog</name>
    <message>
        <source>Paste printed model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the output of &lt;code&gt;print(qat_model)&lt;/code&gt; (or part of it). QAT Doctor only reads the text; nothing is executed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Large text: it is read when you press Analyze.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not readable as a printed model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) read, %1 with quantizers.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::QuestionView</name>
    <message>
        <source>You chose to answer this yourself (automatic check: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your loaded data cannot answer this yet (automatic check: %1). Load the logs or model it needs, or answer by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown from your data, %1 (automatic check: %2). Load it, or answer by hand.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ReportPage</name>
    <message>
        <source>Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open logs or a model to build a report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Export report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open logs or a model first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No analysis loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with another attempt (File ▸ Compare with…) to fill it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ResultView</name>
    <message>
        <source>Add to report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Possible causes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See also</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>References</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the report</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::RunsModel</name>
    <message>
        <source>Double-click to correct the role; the checks run again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Series</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why this role</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SimilarityPlot</name>
    <message>
        <source>Layer (table order)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first drop: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SourceView</name>
    <message>
        <source>%1, line %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search (Enter: next, Shift+Enter: previous)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not show the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lines %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search wrapped around</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” not found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SymptomPicker</name>
    <message>
        <source>What do you see?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search symptoms, causes and advice (e.g. NaN, int16, 高精度)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Symptom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topic %1, commonness %2/10</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n topic(s); the most common symptoms first.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Most common</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No topic matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n matching topic(s), best first.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Named by your findings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WeightHistogram</name>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantization grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no weight values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantization grid (scale %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantization grid, 1 line per %1 values (scale %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WeightView</name>
    <message>
        <source>Output channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of %1, scale %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WelcomePanel</name>
    <message>
        <source>Open the folder your training wrote (float, calibration and QAT runs), an exported ONNX model, or the toolchain&apos;s debug text files. QAT Doctor reads them, flags what is off, and walks you through the FAQ with the answers your data can give.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open log folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model or debug file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the demo (float, calibration and QAT runs + a QAT model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tip: drop folders and files anywhere on this window.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WizardPage</name>
    <message>
        <source>Symptom wizard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All symptoms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back one answer (Backspace, Alt+Left)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start this symptom again from its first question</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The FAQ folder %1 has %n problem(s); the wizard shows what loaded.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Symptoms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(auto)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
