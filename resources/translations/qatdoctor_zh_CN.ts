<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ProgressText</name>
    <message>
        <source>reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>read %1</source>
        <translation>已读取 %1</translation>
    </message>
    <message>
        <source>loading %1</source>
        <translation>正在加载 %1</translation>
    </message>
    <message>
        <source>parsing %1</source>
        <translation>正在解析 %1</translation>
    </message>
    <message>
        <source>parsed %1</source>
        <translation>已解析 %1</translation>
    </message>
    <message>
        <source>hashing %1</source>
        <translation>正在计算哈希 %1</translation>
    </message>
    <message>
        <source>building the layer table</source>
        <translation>正在构建层表</translation>
    </message>
    <message>
        <source>building %1</source>
        <translation>正在构建 %1</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>running checks</source>
        <translation>正在运行检查</translation>
    </message>
    <message>
        <source>report built</source>
        <translation>报告已生成</translation>
    </message>
    <message>
        <source>propagating dtypes</source>
        <translation>正在推导数据类型</translation>
    </message>
    <message>
        <source>placing nodes</source>
        <translation>正在布置节点</translation>
    </message>
    <message>
        <source>grouping nodes</source>
        <translation>正在分组节点</translation>
    </message>
    <message>
        <source>layering</source>
        <translation>正在分层</translation>
    </message>
    <message>
        <source>layer table built</source>
        <translation>层表已生成</translation>
    </message>
    <message>
        <source>indexing graph</source>
        <translation>正在索引计算图</translation>
    </message>
    <message>
        <source>graph indexed</source>
        <translation>计算图已索引</translation>
    </message>
    <message>
        <source>graph laid out</source>
        <translation>计算图布局完成</translation>
    </message>
    <message>
        <source>simulating: float</source>
        <translation>仿真：浮点</translation>
    </message>
    <message>
        <source>simulating: fake-quant</source>
        <translation>仿真：伪量化</translation>
    </message>
    <message>
        <source>simulating: integer</source>
        <translation>仿真：定点</translation>
    </message>
    <message>
        <source>simulating: integer, other rounding</source>
        <translation>仿真：定点，另一种舍入</translation>
    </message>
    <message>
        <source>simulating: integer, unchanged model</source>
        <translation>仿真：定点，未修改的模型</translation>
    </message>
    <message>
        <source>simulating: what-if int16</source>
        <translation>仿真：what-if int16</translation>
    </message>
    <message>
        <source>colour forms: %1</source>
        <translation>颜色格式：%1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>granularity</source>
        <translation>粒度</translation>
    </message>
    <message>
        <source>per-channel, axis %1, %2 channels</source>
        <translation>逐通道，轴 %1，%2 个通道</translation>
    </message>
    <message>
        <source>per-tensor</source>
        <translation>逐张量</translation>
    </message>
    <message>
        <source>scale</source>
        <translation>scale</translation>
    </message>
    <message>
        <source>zero point</source>
        <translation>零点</translation>
    </message>
    <message>
        <source>integer range</source>
        <translation>整数范围</translation>
    </message>
    <message>
        <source>quantizer</source>
        <translation>量化器</translation>
    </message>
    <message>
        <source>scale from</source>
        <translation>scale 来源</translation>
    </message>
    <message>
        <source>YUV444 (centered)</source>
        <translation>YUV444（居中）</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ArtifactsPage</name>
    <message>
        <source>Debug files</source>
        <translation>调试文件</translation>
    </message>
    <message>
        <source>Table:</source>
        <translation>表格：</translation>
    </message>
    <message>
        <source>Filter rows…</source>
        <translation>筛选行…</translation>
    </message>
    <message>
        <source>No toolchain debug files are loaded.

Open or drop model_check_result.txt, compare_per_layer_out.txt / .csv, *_sensitive_ops.txt, statistic.txt, similarity.txt, weight_comparison.txt or deploy_device.txt.</source>
        <translation>尚未加载工具链调试文件。

请打开或拖入 model_check_result.txt、compare_per_layer_out.txt / .csv、*_sensitive_ops.txt、statistic.txt、similarity.txt、weight_comparison.txt 或 deploy_device.txt。</translation>
    </message>
    <message>
        <source>Line in the source file</source>
        <translation>源文件中的行号</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) while reading this file:</source>
        <translation>
            <numerusform>读取该文件时有 %n 条警告：</numerusform>
        </translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>A and B have no debug table of one kind (per-layer comparison, sensitivity, statistics…) to compare row by row.</source>
        <translation>A 与 B 没有同一种调试表（逐层对比、敏感度、统计……）可以逐行比较。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::AutoAnswerPanel</name>
    <message>
        <source>Answered from your data</source>
        <translation>已根据你的数据自动回答</translation>
    </message>
    <message>
        <source>found</source>
        <translation>发现问题</translation>
    </message>
    <message>
        <source>nothing found</source>
        <translation>未发现问题</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>手动作答</translation>
    </message>
    <message>
        <source>Go back to this question and answer it yourself</source>
        <translation>回到此问题并自行作答</translation>
    </message>
    <message>
        <source>Double-click (or Enter) to show this place</source>
        <translation>双击（或按回车）定位到此处</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CheckpointsPage</name>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Changed only</source>
        <translation>仅显示有变化的</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Filter rows…</source>
        <translation>筛选行…</translation>
    </message>
    <message>
        <source>Hide the tensors that are byte-identical in both checkpoints</source>
        <translation>隐藏在两个 checkpoint 中逐字节相同的张量</translation>
    </message>
    <message>
        <source>No checkpoint is loaded.

Open or drop torch.save files (.pt, .pth, .ckpt, .bin): one to see its quantizers, two or more (calibration, QAT…) to see what changed between them. They are read without Python and never executed.</source>
        <translation>尚未加载 checkpoint。

打开或拖入 torch.save 保存的文件（.pt、.pth、.ckpt、.bin）：一个可查看其量化参数，两个或更多（calibration、QAT…）可查看它们之间的变化。文件不经 Python 读取，也从不执行。</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n tensor(s)</source>
        <translation>
            <numerusform>%1 — %n 个张量</numerusform>
        </translation>
    </message>
    <message>
        <source>What changed: %1 → %2</source>
        <translation>变化：%1 → %2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (%2 container, %n tensor(s))</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;（%2 容器，%n 个张量）</numerusform>
        </translation>
    </message>
    <message>
        <source>Model under the key &apos;%1&apos;.</source>
        <translation>模型位于键“%1”下。</translation>
    </message>
    <message>
        <source>Security:</source>
        <translation>安全警告：</translation>
    </message>
    <message>
        <source>the pickle names %1; torch.load would run it. QAT Doctor did not.</source>
        <translation>pickle 引用了 %1；torch.load 会执行它，QAT Doctor 没有执行。</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Weight scale</source>
        <translation>权重 scale</translation>
    </message>
    <message>
        <source>Output scale</source>
        <translation>输出 scale</translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation>零点</translation>
    </message>
    <message>
        <source>Observed range</source>
        <translation>统计范围</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;A&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Relative L2</source>
        <translation>相对 L2</translation>
    </message>
    <message>
        <source>Max abs</source>
        <translation>最大绝对差</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>元素数</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>quantizer</source>
        <translation>量化参数</translation>
    </message>
    <message>
        <source>running statistic</source>
        <translation>统计量</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>有变化</translation>
    </message>
    <message>
        <source>reshaped</source>
        <translation>形状改变</translation>
    </message>
    <message>
        <source>only in B</source>
        <translation>仅在 B 中</translation>
    </message>
    <message>
        <source>only in A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>unread</source>
        <translation>未能读取</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>averaging constant %1</source>
        <translation>滑动平均系数 %1</translation>
    </message>
    <message>
        <source>Bit widths are not saved in this checkpoint (quant_min / quant_max are attributes, kept only when the whole model is saved); scales and zero points are.</source>
        <translation>此 checkpoint 未保存位宽（quant_min / quant_max 是属性，只有保存整个模型时才会保留）；scale 和 zero point 已保存。</translation>
    </message>
    <message>
        <source>dtype (weight / output)</source>
        <translation>dtype（权重 / 输出）</translation>
    </message>
    <message>
        <source>Fake quant (weight / output)</source>
        <translation>伪量化（权重 / 输出）</translation>
    </message>
    <message>
        <source>Observer (weight / output)</source>
        <translation>观测器（权重 / 输出）</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CodeBlockView</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the code to the clipboard</source>
        <translation>复制代码到剪贴板</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ComparisonView</name>
    <message>
        <source>Changed only</source>
        <translation>仅显示有变化的行</translation>
    </message>
    <message>
        <source>Only rows whose configuration changed, whose metric moved, or that one side lacks</source>
        <translation>只显示配置有变化、指标有变动或只在一边存在的行</translation>
    </message>
    <message>
        <source>A | B</source>
        <translation>A | B</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; (open): %1 &amp;nbsp;→&amp;nbsp; &lt;b&gt;B&lt;/b&gt; (compared with): %2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;A&lt;/b&gt;（当前打开）：%1 &amp;nbsp;→&amp;nbsp; &lt;b&gt;B&lt;/b&gt;（对比对象）：%2&lt;br&gt;%3</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CurvePlot</name>
    <message>
        <source>step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>wall time (hours)</source>
        <translation>时间（小时）</translation>
    </message>
    <message>
        <source>step (QAT after float)</source>
        <translation>步数（QAT 接在 float 之后）</translation>
    </message>
    <message>
        <source>Training curves</source>
        <translation>训练曲线</translation>
    </message>
    <message>
        <source>QAT − float</source>
        <translation>QAT − float</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) off the scale</source>
        <translation>
            <numerusform>%n 个点超出坐标范围</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::CurvesPage</name>
    <message>
        <source>Training curves</source>
        <translation>训练曲线</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>QAT after float</source>
        <translation>QAT 接在 float 之后</translation>
    </message>
    <message>
        <source>x axis; &quot;QAT after float&quot; places QAT&apos;s step 0 at float&apos;s last step</source>
        <translation>横轴；“QAT 接在 float 之后”把 QAT 的第 0 步放在 float 的最后一步</translation>
    </message>
    <message>
        <source>Smoothing (TensorBoard&apos;s debiased exponential moving average); the raw curve stays faint behind</source>
        <translation>平滑（TensorBoard 的去偏指数滑动平均）；原始曲线以浅色显示在后面</translation>
    </message>
    <message>
        <source>Box zoom</source>
        <translation>框选缩放</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Watch folder</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>Re-read appended lines and new files of the log folder as training writes them</source>
        <translation>训练写入时自动读取日志文件夹中新追加的行和新文件</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>横轴：</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Each checked metric is one plot; the plots share the x axis</source>
        <translation>每个勾选的指标一张图；各图共用横轴</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) while reading the logs (see Overview)</source>
        <translation>
            <numerusform>读取日志时有 %n 条警告（见概览）</numerusform>
        </translation>
    </message>
    <message>
        <source>Guessed from: %1</source>
        <translation>判断依据：%1</translation>
    </message>
    <message>
        <source>Explain this reading…</source>
        <translation>解释此读取结果…</translation>
    </message>
    <message>
        <source>Reading the source lines…</source>
        <translation>正在读取源行…</translation>
    </message>
    <message>
        <source>How this run was read</source>
        <translation>此运行是如何读取的</translation>
    </message>
    <message>
        <source>y: auto</source>
        <translation>纵轴：自动</translation>
    </message>
    <message>
        <source>y: linear</source>
        <translation>纵轴：线性</translation>
    </message>
    <message>
        <source>y: log</source>
        <translation>纵轴：对数</translation>
    </message>
    <message>
        <source>Auto: a chart whose values span more than three decades is drawn on a log scale; a few far outliers are left off the scale (and counted) so they do not flatten the rest</source>
        <translation>自动：数值跨越三个数量级以上的图用对数坐标；少数远离的离群点不计入坐标范围（并注明个数），以免把其余曲线压平</translation>
    </message>
    <message>
        <source>QAT − float</source>
        <translation>QAT − float</translation>
    </message>
    <message>
        <source>Adds, per chart, each QAT run minus the float run at equal steps</source>
        <translation>在每张图上加一条曲线：各 QAT 运行在相同步数处减去 float 运行的值</translation>
    </message>
    <message>
        <source>Filter runs (text or regex)</source>
        <translation>筛选运行（文本或正则表达式）</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf);;Visible series as CSV (*.csv)</source>
        <translation>PNG 图片 (*.png);;SVG 图片 (*.svg);;PDF (*.pdf);;可见曲线 CSV (*.csv)</translation>
    </message>
    <message>
        <source>Untick to hide; right-click: explain this reading</source>
        <translation>取消勾选即隐藏；右键：解释此读取结果</translation>
    </message>
    <message>
        <source>The loaded logs hold no metric series (see Overview for how they were read).
Open a training log folder with loss or accuracy lines: File ▸ Open log folder…</source>
        <translation>已加载的日志中没有指标曲线（读取情况见概览）。
请打开含有 loss 或精度行的训练日志文件夹：文件 ▸ 打开日志文件夹…</translation>
    </message>
    <message>
        <source>No training logs loaded.
Open a training log folder (File ▸ Open log folder…) or drop log files here to see float, calibration, QAT and quantized curves.</source>
        <translation>尚未加载训练日志。
打开训练日志文件夹（文件 ▸ 打开日志文件夹…）或把日志文件拖到这里，即可查看 float、calibration、QAT 和 quantized 的曲线。</translation>
    </message>
    <message>
        <source>crash (traceback)</source>
        <translation>崩溃（traceback）</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>live: %1</source>
        <translation>实时：%1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FindingsModel</name>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>浮点</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>Calibration</translation>
    </message>
    <message>
        <source>QAT</source>
        <translation>QAT</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>部署</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>层 %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>● live %1</source>
        <translation>● 实时 %1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointColourPanel</name>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>integer (deployed)</source>
        <translation>整数（部署）</translation>
    </message>
    <message>
        <source>fake-quant (QAT)</source>
        <translation>伪量化（QAT）</translation>
    </message>
    <message>
        <source>Pixels (0..255, or -128..127 for centered YUV) are multiplied by this before the model, as the training normalization did; 1/128 is horizon&apos;s convention for centered YUV444.</source>
        <translation>像素值（0..255，居中 YUV 为 -128..127）在送入模型前乘以此系数，与训练时的归一化一致；1/128 是地平线居中 YUV444 的约定。</translation>
    </message>
    <message>
        <source>Model trained on</source>
        <translation>模型训练输入</translation>
    </message>
    <message>
        <source>fed</source>
        <translation>实际输入</translation>
    </message>
    <message>
        <source>pixel scale</source>
        <translation>像素系数</translation>
    </message>
    <message>
        <source>Pick an image as the input (Input file...) to see what feeding it in the wrong colour form does: the board takes centered YUV444, a model trained on RGB (or the reverse) is wrong from its first layer on.</source>
        <translation>选择一张图片作为输入（输入文件...），查看以错误的颜色格式输入会怎样：板端接收居中 YUV444，用 RGB 训练的模型（或反之）从第一层起就会出错。</translation>
    </message>
    <message>
        <source>Image %1: press Compare.</source>
        <translation>图片 %1：请点击“比较”。</translation>
    </message>
    <message>
        <source>Comparing colour forms on %1</source>
        <translation>正在比较 %1 的颜色格式</translation>
    </message>
    <message>
        <source>Colour comparison failed: %1</source>
        <translation>颜色格式比较失败：%1</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Quantization only: SQNR (dB)</source>
        <translation>仅量化：SQNR (dB)</translation>
    </message>
    <message>
        <source>%1 fed as %2: SQNR (dB)</source>
        <translation>%1 以 %2 输入：SQNR (dB)</translation>
    </message>
    <message>
        <source>cosine (%1)</source>
        <translation>余弦相似度（%1）</translation>
    </message>
    <message>
        <source>max error (%1, LSB)</source>
        <translation>最大误差（%1，LSB）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model trained on %1, fed %2&lt;/b&gt; (%3 mode).</source>
        <translation>&lt;b&gt;模型以 %1 训练，实际输入 %2&lt;/b&gt;（%3 模式）。</translation>
    </message>
    <message>
        <source>Output SQNR: %1 dB with the wrong colour form against %2 dB from quantization alone.</source>
        <translation>输出 SQNR：错误颜色格式下为 %1 dB，仅量化时为 %2 dB。</translation>
    </message>
    <message>
        <source>The two forms agree on every layer.</source>
        <translation>两种格式在每一层都一致。</translation>
    </message>
    <message>
        <source>First layer where they part: &lt;b&gt;%1&lt;/b&gt;.</source>
        <translation>首个出现分歧的层：&lt;b&gt;%1&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>Top-1 class unchanged (%1).</source>
        <translation>Top-1 类别未变（%1）。</translation>
    </message>
    <message>
        <source>Top-1 class changes: %1 -&gt; %2.</source>
        <translation>Top-1 类别改变：%1 -&gt; %2。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointDatasetPanel</name>
    <message>
        <source>Evaluate</source>
        <translation>评测</translation>
    </message>
    <message>
        <source>Save result...</source>
        <translation>保存结果...</translation>
    </message>
    <message>
        <source>float, fake-quant and integer</source>
        <translation>浮点、伪量化和整数</translation>
    </message>
    <message>
        <source>integer only (fastest)</source>
        <translation>仅整数（最快）</translation>
    </message>
    <message>
        <source>Integer only gives the simulated deployment accuracy; all three modes also show where it is lost (quantization or the fixed-point arithmetic).</source>
        <translation>仅整数模式给出仿真的部署精度；三种模式一起还能看出精度在哪里丢失（量化本身，还是定点运算）。</translation>
    </message>
    <message>
        <source>Batch file...</source>
        <translation>批量文件...</translation>
    </message>
    <message>
        <source>A .npy batch of the model&apos;s input (read a sample at a time) or a .pb file</source>
        <translation>模型输入的 .npy 批量文件（逐样本读取）或 .pb 文件</translation>
    </message>
    <message>
        <source>Folder...</source>
        <translation>文件夹...</translation>
    </message>
    <message>
        <source>A folder of .npy / .pb samples, or of images in one folder per class</source>
        <translation>.npy / .pb 样本文件夹，或每个类别一个子文件夹的图片文件夹</translation>
    </message>
    <message>
        <source>Labels...</source>
        <translation>标签...</translation>
    </message>
    <message>
        <source>A .npy of one integer class per sample, in sample order</source>
        <translation>每个样本一个整数类别的 .npy，按样本顺序</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>Dataset file</source>
        <translation>数据集文件</translation>
    </message>
    <message>
        <source>Samples (*.npy *.pb);;All files (*)</source>
        <translation>样本 (*.npy *.pb);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Dataset folder</source>
        <translation>数据集文件夹</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Labels (*.npy);;All files (*)</source>
        <translation>标签 (*.npy);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save evaluation result</source>
        <translation>保存评测结果</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Evaluating...</source>
        <translation>正在评测...</translation>
    </message>
    <message>
        <source>Evaluating on %1</source>
        <translation>正在 %1 上评测</translation>
    </message>
    <message>
        <source>Evaluation failed: %1</source>
        <translation>评测失败：%1</translation>
    </message>
    <message>
        <source>Worst samples:</source>
        <translation>最差的样本：</translation>
    </message>
    <message>
        <source>  label %1, fake-quant %2, integer %3</source>
        <translation>  标签 %1，伪量化 %2，整数 %3</translation>
    </message>
    <message>
        <source>%1 samples in %2 s (%3 samples/s, %4 thread(s)).</source>
        <translation>%1 个样本，用时 %2 秒（每秒 %3 个样本，%4 个线程）。</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLayerPlot</name>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>fake vs int</source>
        <translation>伪量化 vs 定点</translation>
    </message>
    <message>
        <source>float vs fake</source>
        <translation>浮点 vs 伪量化</translation>
    </message>
    <message>
        <source>float vs int</source>
        <translation>浮点 vs 定点</translation>
    </message>
    <message>
        <source>
accumulator overflows: %1</source>
        <translation>
累加器溢出：%1</translation>
    </message>
    <message>
        <source>first bad: %1</source>
        <translation>首个异常层：%1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLayerTable</name>
    <message>
        <source>fake-quant vs integer (what deployment changes)</source>
        <translation>伪量化 vs 整数（部署带来的变化）</translation>
    </message>
    <message>
        <source>float vs fake-quant (what quantization costs)</source>
        <translation>浮点 vs 伪量化（量化带来的损失）</translation>
    </message>
    <message>
        <source>float vs integer (both)</source>
        <translation>浮点 vs 整数（两者合计）</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>int16</source>
        <translation>int16</translation>
    </message>
    <message>
        <source>float</source>
        <translation>浮点</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>MSE</source>
        <translation>MSE</translation>
    </message>
    <message>
        <source>L1 (mean |err|)</source>
        <translation>L1（平均 |误差|）</translation>
    </message>
    <message>
        <source>max abs err</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>max err (LSB)</source>
        <translation>最大误差（LSB）</translation>
    </message>
    <message>
        <source>overflows</source>
        <translation>溢出</translation>
    </message>
    <message>
        <source>largest error in steps of the layer&apos;s output scale</source>
        <translation>以该层输出 scale 为单位的最大误差</translation>
    </message>
    <message>
        <source>integer-mode outputs whose accumulator passed int32</source>
        <translation>整数模式下累加值超出 int32 的输出个数</translation>
    </message>
    <message>
        <source>what-if: this layer&apos;s quantizers at 16 bits</source>
        <translation>假设分析：该层量化器改为 16 位</translation>
    </message>
    <message>
        <source>what-if: this layer computed in float</source>
        <translation>假设分析：该层以浮点计算</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointLutPlot</name>
    <message>
        <source>input (real)</source>
        <translation>输入（实数）</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>|table - function|</source>
        <translation>|查表 - 函数|</translation>
    </message>
    <message>
        <source>float function</source>
        <translation>浮点函数</translation>
    </message>
    <message>
        <source>%1-entry table</source>
        <translation>%1 项查找表</translation>
    </message>
    <message>
        <source>error</source>
        <translation>误差</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::FixedpointPage</name>
    <message>
        <source>Fixed-point</source>
        <translation>定点仿真</translation>
    </message>
    <message>
        <source>Rank layers for int16</source>
        <translation>评估各层改用 int16 的收益</translation>
    </message>
    <message>
        <source>Simulate</source>
        <translation>开始仿真</translation>
    </message>
    <message>
        <source>float multiply (reference runtimes)</source>
        <translation>浮点乘法（参考运行时）</translation>
    </message>
    <message>
        <source>threads </source>
        <translation>线程数 </translation>
    </message>
    <message>
        <source>Input file...</source>
        <translation>输入文件…</translation>
    </message>
    <message>
        <source>Random input</source>
        <translation>随机输入</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>逐层</translation>
    </message>
    <message>
        <source>int16 sensitivity</source>
        <translation>int16 敏感度</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Look-up tables</source>
        <translation>查找表</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <source>Input tensor</source>
        <translation>输入张量</translation>
    </message>
    <message>
        <source>Input: random values (seed 0)</source>
        <translation>输入：随机值（种子 0）</translation>
    </message>
    <message>
        <source>Input: %1</source>
        <translation>输入：%1</translation>
    </message>
    <message>
        <source>Load an ONNX model exported from QAT (QuantizeLinear/DequantizeLinear form) to simulate float, fake-quant and integer inference layer by layer.</source>
        <translation>加载由 QAT 导出的 ONNX 模型（QuantizeLinear/DequantizeLinear 形式），即可逐层仿真浮点、伪量化和定点推理。</translation>
    </message>
    <message>
        <source>Model: %1. Simulate runs it as float (quantizers removed), fake-quant (= ONNX Runtime, the QAT model) and integer (= the deployed model) on the same input.</source>
        <translation>模型：%1。仿真会在同一输入上分别以浮点（去掉量化节点）、伪量化（= ONNX Runtime，即 QAT 模型）和定点（= 部署模型）运行。</translation>
    </message>
    <message>
        <source>Simulating %1</source>
        <translation>正在仿真 %1</translation>
    </message>
    <message>
        <source>Simulation failed: %1</source>
        <translation>仿真失败：%1</translation>
    </message>
    <message>
        <source>Fake-quant and integer agree on every layer.</source>
        <translation>伪量化与定点在每一层都一致。</translation>
    </message>
    <message>
        <source>&lt;b&gt;First layer where fake-quant and integer part: %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;伪量化与定点开始出现差异的第一层：%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Output SQNR, integer vs float: %1 dB</source>
        <translation>输出 SQNR（定点 vs 浮点）：%1 dB</translation>
    </message>
    <message>
        <source>Float vs fixed-point requantization: %1 LSB at the output</source>
        <translation>浮点与定点重量化之差：输出处 %1 LSB</translation>
    </message>
    <message>
        <source>%1 op(s) fell back to float in integer mode</source>
        <translation>定点模式下有 %1 个算子回退为浮点</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Output SQNR at int16 (dB)</source>
        <translation>改为 int16 后的输出 SQNR (dB)</translation>
    </message>
    <message>
        <source>Gain (dB)</source>
        <translation>提升 (dB)</translation>
    </message>
    <message>
        <source>No findings.</source>
        <translation>未发现问题。</translation>
    </message>
    <message>
        <source>No layer with a constant weight.</source>
        <translation>没有带常量权重的层。</translation>
    </message>
    <message>
        <source>Weight SQNR: int8 per-tensor %1 dB, int8 per-channel %2 dB, int16 per-channel %3 dB%4</source>
        <translation>权重 SQNR：int8 逐张量 %1 dB，int8 逐通道 %2 dB，int16 逐通道 %3 dB%4</translation>
    </message>
    <message>
        <source>, the model&apos;s own quantizer %1 dB</source>
        <translation>，模型自身量化器 %1 dB</translation>
    </message>
    <message>
        <source>image as RGB</source>
        <translation>图像按 RGB 输入</translation>
    </message>
    <message>
        <source>image as BGR</source>
        <translation>图像按 BGR 输入</translation>
    </message>
    <message>
        <source>image as YUV444 (centered)</source>
        <translation>图像按 YUV444（centered）输入</translation>
    </message>
    <message>
        <source>How an image input is fed: the board takes centered YUV444; a model trained on RGB fed YUV444 (or the reverse) shows here as a large float-vs-int error.</source>
        <translation>图像输入的送入方式：板端接收 centered YUV444；用 RGB 训练的模型若输入 YUV444（或反之），这里会表现为很大的浮点与定点误差。</translation>
    </message>
    <message>
        <source>Inputs (*.npy *.pb *.png *.jpg *.jpeg *.bmp);;All files (*)</source>
        <translation>输入 (*.npy *.pb *.png *.jpg *.jpeg *.bmp);;所有文件 (*)</translation>
    </message>
    <message>
        <source>RGB vs YUV444</source>
        <translation>RGB 与 YUV444</translation>
    </message>
    <message>
        <source>Re-run with the ticked layers</source>
        <translation>按勾选的层重新运行</translation>
    </message>
    <message>
        <source>What-if: tick layers at int16 or in float, then</source>
        <translation>假设分析：勾选设为 int16 或浮点的层，然后</translation>
    </message>
    <message>
        <source> (what-if: %1 layer(s) at int16, %2 in float; unchanged model %3 dB, gain %4 dB)</source>
        <translation>（假设分析：%1 层 int16，%2 层浮点；原模型 %3 dB，提升 %4 dB）</translation>
    </message>
    <message>
        <source>Not ranked in this run. Tick &quot;Rank layers for int16&quot; and simulate: every layer is run once more at int16, and the layers are ranked by the output SQNR that gains.</source>
        <translation>本次运行未排序。勾选“评估各层改用 int16 的收益”后仿真：每层单独以 int16 再运行一次，并按输出 SQNR 的提升排序。</translation>
    </message>
    <message>
        <source>Each layer alone at int16, best gain first: the layers worth 16 bits on the board.</source>
        <translation>每层单独设为 int16，收益最大者在前：这些层值得在板端使用 16 位。</translation>
    </message>
    <message>
        <source>No look-up-table op in this model (Sigmoid, Tanh, Exp, Softmax, Gelu, ...):
nothing here turns into a table on export.</source>
        <translation>该模型没有查表算子（Sigmoid、Tanh、Exp、Softmax、Gelu 等）：
导出时没有算子会变成查找表。</translation>
    </message>
    <message>
        <source>Figures cover %1 input samples of the batch; the sensitivity ranking is the first sample&apos;s.</source>
        <translation>数值覆盖该批次的 %1 个输入样本；敏感度排序取自第一个样本。</translation>
    </message>
    <message>
        <source>fixed point, ties to even</source>
        <translation>定点，半数取偶</translation>
    </message>
    <message>
        <source>fixed point, ties away from zero</source>
        <translation>定点，半数远离零</translation>
    </message>
    <message>
        <source>fixed point, ties up</source>
        <translation>定点，半数向上</translation>
    </message>
    <message>
        <source>How the integer mode requantizes accumulators. Reference runtimes multiply in float and round ties to even; integer hardware multiplies and shifts, and boards differ in how they round ties. Change it and simulate again: the summary names the layers whose integer results changed.</source>
        <translation>整数模式如何对累加结果重量化。参考运行时用浮点乘法并把半数舍入到偶数；整数硬件用乘数加移位，不同板端对半数的舍入方式不同。切换后再次仿真：摘要会列出整数结果发生变化的层。</translation>
    </message>
    <message>
        <source>Requantization %1 → %2: no layer&apos;s integer result changed.</source>
        <translation>重量化 %1 → %2：没有层的整数结果发生变化。</translation>
    </message>
    <message>
        <source>Requantization %1 → %2: the integer results of %3 of %4 layers changed: %5</source>
        <translation>重量化 %1 → %2：%4 个层中有 %3 个层的整数结果发生变化：%5</translation>
    </message>
    <message>
        <source>float</source>
        <translation>浮点</translation>
    </message>
    <message>
        <source>fake-quant</source>
        <translation>伪量化</translation>
    </message>
    <message>
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>%1 %2 ms  </source>
        <translation>%1 %2 ms  </translation>
    </message>
    <message>
        <source>Top-1 of the float, fake-quant and integer modes over an evaluation set: the simulated deployment accuracy, a rung of the stage ladder</source>
        <translation>浮点、伪量化和整数模式在评测集上的 top-1：仿真的部署精度，也是阶段阶梯中的一级</translation>
    </message>
    <message>
        <source>Evaluate on a dataset</source>
        <translation>在数据集上评测</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::GraphView</name>
    <message>
        <source>Fold quantizers</source>
        <translation>折叠量化节点</translation>
    </message>
    <message>
        <source>Search nodes (Enter = next)</source>
        <translation>搜索节点（回车 = 下一个）</translation>
    </message>
    <message>
        <source>No grouping</source>
        <translation>不分组</translation>
    </message>
    <message>
        <source>Group by module, depth %1</source>
        <translation>按模块分组，深度 %1</translation>
    </message>
    <message>
        <source>Hide Quantize/Dequantize, Constant and Identity nodes; edges then show the quantized dtype</source>
        <translation>隐藏 Quantize/Dequantize、Constant 和 Identity 节点；边上显示量化后的数据类型</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <source>No graph for this source (%1 is a %2, not a model graph).</source>
        <translation>此来源没有计算图（%1 是 %2，不是模型图）。</translation>
    </message>
    <message>
        <source>Laying out the graph…</source>
        <translation>正在布局计算图…</translation>
    </message>
    <message>
        <source>Laying out the model graph</source>
        <translation>正在布局模型计算图</translation>
    </message>
    <message>
        <source>%1 nodes drawn, %2 edges, %3 quantizer/constant nodes folded</source>
        <translation>已绘制 %1 个节点、%2 条边，折叠了 %3 个量化/常量节点</translation>
    </message>
    <message>
        <source>%L1 nodes are too many to draw one by one: drawn in groups of %L2 consecutive nodes (the Layers tab lists every one)</source>
        <translation>%L1 个节点太多，无法逐个绘制：按每组 %L2 个相邻节点绘制（“层”标签页列出全部节点）</translation>
    </message>
    <message>
        <source>%L1 nodes are too many to draw one by one: grouped by module, depth %2</source>
        <translation>%L1 个节点太多，无法逐个绘制：按模块分组，深度 %2</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::InputsModel</name>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Size / layers</source>
        <translation>大小 / 层数</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::JobStatus</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop this work (Esc)</source>
        <translation>停止当前任务（Esc）</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LadderStrip</name>
    <message>
        <source>95%: %1</source>
        <translation>95% 区间：%1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LayerDetails</name>
    <message>
        <source>this layer has no weight</source>
        <translation>该层没有权重</translation>
    </message>
    <message>
        <source>weights are not available for this source</source>
        <translation>此来源不含权重数值</translation>
    </message>
    <message>
        <source>reading weights…</source>
        <translation>正在读取权重…</translation>
    </message>
    <message>
        <source>Reading weights of %1</source>
        <translation>正在读取 %1 的权重</translation>
    </message>
    <message>
        <source>Select a layer to see its quantization parameters.</source>
        <translation>选择一层以查看其量化参数。</translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <source>Weight quantizer</source>
        <translation>权重量化器</translation>
    </message>
    <message>
        <source>Weight:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>not quantized in this graph</source>
        <translation>此图中未量化</translation>
    </message>
    <message>
        <source>Output quantizer</source>
        <translation>输出量化器</translation>
    </message>
    <message>
        <source>Output not quantized (high precision).</source>
        <translation>输出未量化（高精度）。</translation>
    </message>
    <message>
        <source>Flags:</source>
        <translation>标记：</translation>
    </message>
    <message>
        <source>Open in wizard</source>
        <translation>在向导中打开</translation>
    </message>
    <message>
        <source>Select a layer to see its weights against the quantization grid</source>
        <translation>选择一层，查看其权重与量化网格的对照</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LayerTableModel</name>
    <message>
        <source>Click to open the wizard on this topic.</source>
        <translation>点击在向导中打开此专题。</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Input dtypes</source>
        <translation>输入类型</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Granularity</source>
        <translation>粒度</translation>
    </message>
    <message>
        <source>Weight scales</source>
        <translation>权重 scale</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Output scale</source>
        <translation>输出 scale</translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation>零点</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>double-click: open in wizard</source>
        <translation>双击：在向导中打开</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::LiveWatchSession</name>
    <message>
        <source>No log folder loaded to watch.</source>
        <translation>没有已加载的日志文件夹可以监视。</translation>
    </message>
    <message>
        <source>Watching %1</source>
        <translation>正在监视 %1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::MainWindow</name>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Demo not found</source>
        <translation>找不到示例数据</translation>
    </message>
    <message>
        <source>The demo data is missing from %1.</source>
        <translation>%1 中缺少示例数据。</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n input(s)…</source>
        <translation>
            <numerusform>正在加载 %n 个输入…</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message numerus="yes">
        <source>Loaded %n input(s), %1 finding(s).</source>
        <translation>
            <numerusform>已加载 %n 个输入，发现 %1 个问题。</numerusform>
        </translation>
    </message>
    <message>
        <source>nothing open</source>
        <translation>尚未打开任何内容</translation>
    </message>
    <message numerus="yes">
        <source>%n input(s)</source>
        <translation>
            <numerusform>%n 个输入</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;log folder…</source>
        <translation>打开日志文件夹(&amp;L)…</translation>
    </message>
    <message>
        <source>Open &amp;model or debug file…</source>
        <translation>打开模型或调试文件(&amp;M)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>&amp;Paste printed model…</source>
        <translation>粘贴打印的模型(&amp;P)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+V</source>
        <translation>Ctrl+Shift+V</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;demo</source>
        <translation>打开示例(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New session</source>
        <translation>新建会话(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>&amp;Notes</source>
        <translation>笔记(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About QAT Doctor</source>
        <translation>关于 QAT Doctor(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Open training log folder</source>
        <translation>打开训练日志文件夹</translation>
    </message>
    <message>
        <source>Open model, log or debug file</source>
        <translation>打开模型、日志或调试文件</translation>
    </message>
    <message>
        <source>Cannot keep the pasted text</source>
        <translation>无法保存粘贴的文本</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>QAT Doctor session (*.qatdoctor)</source>
        <translation>QAT Doctor 会话 (*.qatdoctor)</translation>
    </message>
    <message>
        <source>Cannot save session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>Session saved to %1</source>
        <translation>会话已保存到 %1</translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>&lt;h3&gt;QAT Doctor %1&lt;/h3&gt;&lt;p&gt;A troubleshooting assistant for quantization-aware training: training curves, model dtypes, fixed-point simulation and the FAQ as a guided wizard.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;QAT Doctor %1&lt;/h3&gt;&lt;p&gt;量化感知训练问题排查助手：训练曲线、模型逐层数据类型、定点仿真，以及以向导形式呈现的常见问题。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About QAT Doctor</source>
        <translation>关于 QAT Doctor</translation>
    </message>
    <message>
        <source>Saving the session failed: %1</source>
        <translation>保存会话失败：%1</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message numerus="yes">
        <source>An analysis is open (%n input(s)). Replace it with what you open, or add to it?</source>
        <translation>
            <numerusform>当前已打开一个分析（%n 个输入）。用要打开的内容替换它，还是添加进去？</numerusform>
        </translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Add to it</source>
        <translation>添加进去</translation>
    </message>
    <message>
        <source>&amp;Add to this analysis…</source>
        <translation>添加到当前分析(&amp;A)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Add to this analysis</source>
        <translation>添加到当前分析</translation>
    </message>
    <message>
        <source>Logs, models and debug files (*)</source>
        <translation>日志、模型与调试文件 (*)</translation>
    </message>
    <message>
        <source>Models, checkpoints and debug files (*.onnx *.pt *.pth *.ckpt *.bin *.txt *.csv *.log *.jsonl *.json);;QAT Doctor session (*.qatdoctor);;All files (*)</source>
        <translation>模型、checkpoint 与调试文件 (*.onnx *.pt *.pth *.ckpt *.bin *.txt *.csv *.log *.jsonl *.json);;QAT Doctor 会话 (*.qatdoctor);;所有文件 (*)</translation>
    </message>
    <message>
        <source>compared with %1</source>
        <translation>对比 %1</translation>
    </message>
    <message>
        <source>Compared with:</source>
        <translation>对比对象：</translation>
    </message>
    <message>
        <source>&amp;Compare with…</source>
        <translation>对比(&amp;C)…</translation>
    </message>
    <message>
        <source>Open a second attempt (B, after a change) next to this one (A)</source>
        <translation>打开第二次尝试（B，修改之后），与当前这次（A）对比</translation>
    </message>
    <message>
        <source>&amp;Folder…</source>
        <translation>文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>F&amp;ile…</source>
        <translation>文件(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Stop comparing</source>
        <translation>停止对比(&amp;S)</translation>
    </message>
    <message>
        <source>Loading the attempt to compare with…</source>
        <translation>正在加载要对比的尝试…</translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation>无法对比</translation>
    </message>
    <message>
        <source>Compare with folder (B, after the change)</source>
        <translation>选择对比的文件夹（B，修改之后）</translation>
    </message>
    <message>
        <source>Compare with file (B, after the change)</source>
        <translation>选择对比的文件（B，修改之后）</translation>
    </message>
    <message>
        <source>, step %1</source>
        <translation>，step %1</translation>
    </message>
    <message>
        <source>Training problem: %1</source>
        <translation>训练出现问题：%1</translation>
    </message>
    <message>
        <source> (desktop notified: %1)</source>
        <translation>（已通知桌面：%1）</translation>
    </message>
    <message>
        <source>Live: %1 — %2%3</source>
        <translation>实时：%1 — %2%3</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ModelPage</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Flagged only</source>
        <translation>仅显示有问题的层</translation>
    </message>
    <message>
        <source>Filter layers (name, op, dtype, flag, finding)</source>
        <translation>筛选层（名称、算子、类型、标记、问题）</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>逐层</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model loaded.&lt;/b&gt; Open an exported ONNX model (or a printed model) to see its per-layer dtypes and quantization findings.</source>
        <translation>&lt;b&gt;未加载模型。&lt;/b&gt;打开导出的 ONNX 模型（或打印的模型），即可查看逐层数据类型和量化问题。</translation>
    </message>
    <message>
        <source>, opset %1</source>
        <translation>，opset %1</translation>
    </message>
    <message>
        <source> — %1 layers, %2 flagged</source>
        <translation> — %1 层，%2 层有问题</translation>
    </message>
    <message>
        <source> (%1 more models loaded)</source>
        <translation>（另加载了 %1 个模型）</translation>
    </message>
    <message>
        <source>Expected dtypes…</source>
        <translation>期望的数据类型…</translation>
    </message>
    <message>
        <source>Module name -&gt; dtype you configured (e.g. int16); layers whose actual dtype differs are flagged</source>
        <translation>你配置的“模块名 -&gt; 数据类型”（例如 int16）；实际类型不同的层会被标出</translation>
    </message>
    <message>
        <source>Expected dtypes</source>
        <translation>期望的数据类型</translation>
    </message>
    <message>
        <source>JSON object of module name -&gt; dtype (int8, int16, float32, ...):</source>
        <translation>“模块名 -&gt; 数据类型”的 JSON 对象（int8、int16、float32 等）：</translation>
    </message>
    <message>
        <source>Not a JSON object: %1</source>
        <translation>不是 JSON 对象：%1</translation>
    </message>
    <message>
        <source>Unknown dtype for %1: &apos;%2&apos;</source>
        <translation>%1 的数据类型未知：“%2”</translation>
    </message>
    <message>
        <source>Re-running checks with the expected dtypes</source>
        <translation>正在按期望的数据类型重新检查</translation>
    </message>
    <message>
        <source>Neither side has a model or a checkpoint of one form to compare layer by layer.</source>
        <translation>两边没有同一种形式的模型或 checkpoint 可以逐层比较。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::OverviewPage</name>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Loaded inputs</source>
        <translation>已加载的输入</translation>
    </message>
    <message>
        <source>Runs (double-click a role to correct it)</source>
        <translation>运行（双击角色可更正）</translation>
    </message>
    <message>
        <source>Show evidence</source>
        <translation>查看证据</translation>
    </message>
    <message>
        <source>Open the curve at the step, or the model at the layer</source>
        <translation>在曲线上定位到该步，或在模型中定位到该层</translation>
    </message>
    <message>
        <source>Open in wizard</source>
        <translation>在向导中打开</translation>
    </message>
    <message>
        <source>Open a training log folder, a model or toolchain files to start.</source>
        <translation>打开训练日志文件夹、模型或工具链文件即可开始。</translation>
    </message>
    <message>
        <source>%1 error(s), %2 warning(s), %3 note(s); %4 check(s) ran on %5 run(s) and %6 model(s).</source>
        <translation>%1 个错误，%2 个警告，%3 条提示；在 %5 个运行和 %6 个模型上执行了 %4 项检查。</translation>
    </message>
    <message>
        <source>Select a finding to see its explanation and evidence.</source>
        <translation>选择一个问题以查看说明和证据。</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>no FAQ topic</source>
        <translation>无对应常见问题</translation>
    </message>
    <message>
        <source>FAQ topic %1</source>
        <translation>常见问题专题 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n check(s) not run: see what they need</source>
        <translation>
            <numerusform>%n 项检查未运行：查看它们需要什么</numerusform>
        </translation>
    </message>
    <message>
        <source>Strength:</source>
        <translation>强度：</translation>
    </message>
    <message>
        <source>The data recovered by itself: listed, but not counted in the verdict.</source>
        <translation>数据已自行恢复：列出供参考，不计入结论。</translation>
    </message>
    <message>
        <source>Not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <source>These checks had no data to run on: their answer is unknown, not clear. Load what each needs to have it checked.</source>
        <translation>这些检查没有可用的数据：结果未知，并非通过。加载各项所需的数据即可检查。</translation>
    </message>
    <message>
        <source>Remove from this analysis</source>
        <translation>从本次分析中移除</translation>
    </message>
    <message numerus="yes">
        <source>, %n checkpoint(s)</source>
        <translation>
            <numerusform>，%n 个 checkpoint</numerusform>
        </translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <source>Did the changes take effect?</source>
        <translation>修改生效了吗？</translation>
    </message>
    <message>
        <source>No configuration change the comparison can judge: no layer&apos;s dtype, output precision or quantizer sharing changed, and no debug table or run moved.</source>
        <translation>没有可判断的配置修改：没有层的 dtype、输出精度或量化参数共享发生变化，调试表和训练运行也没有变化。</translation>
    </message>
    <message>
        <source>nothing new so far: findings appear here the moment the logs show them</source>
        <translation>暂无新发现：日志一出现问题，就会立即显示在这里</translation>
    </message>
    <message numerus="yes">
        <source>%n new finding(s) while the run was written; latest: %1</source>
        <translation>
            <numerusform>训练写日志期间新增 %n 个发现；最新：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Watch folder</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>Follow the log folder while training writes it: findings appear the moment the logs show them, and an error reaches the desktop</source>
        <translation>在训练写日志的同时跟踪日志文件夹：日志一出现问题就会显示，错误还会通知到桌面</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::PasteModelDialog</name>
    <message>
        <source>Paste printed model</source>
        <translation>粘贴打印的模型</translation>
    </message>
    <message>
        <source>Paste the output of &lt;code&gt;print(qat_model)&lt;/code&gt; (or part of it). QAT Doctor only reads the text; nothing is executed.</source>
        <translation>粘贴 &lt;code&gt;print(qat_model)&lt;/code&gt; 的输出（或其中一部分）。QAT Doctor 只读取文本，不会执行任何内容。</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Waiting for text.</source>
        <translation>等待输入文本。</translation>
    </message>
    <message>
        <source>Large text: it is read when you press Analyze.</source>
        <translation>文本较大：按“分析”后读取。</translation>
    </message>
    <message>
        <source>Not readable as a printed model: %1</source>
        <translation>无法作为打印的模型读取：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) read, %1 with quantizers.</source>
        <translation>
            <numerusform>读取了 %n 层，其中 %1 层带量化器。</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Findings: %1.</source>
        <translation>发现的问题：%1。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::QuestionView</name>
    <message>
        <source>You chose to answer this yourself (automatic check: %1).</source>
        <translation>你选择了自行作答（自动检查：%1）。</translation>
    </message>
    <message>
        <source>Your loaded data cannot answer this yet (automatic check: %1). Load the logs or model it needs, or answer by hand.</source>
        <translation>当前加载的数据还无法回答此问题（自动检查：%1）。请加载所需的日志或模型，或手动作答。</translation>
    </message>
    <message>
        <source>Press %1</source>
        <translation>按 %1</translation>
    </message>
    <message>
        <source>Unknown from your data, %1 (automatic check: %2). Load it, or answer by hand.</source>
        <translation>无法从已加载的数据判断，%1（自动检查：%2）。请加载所需数据，或手动回答。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ReportPage</name>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Paper</source>
        <translation>纸张</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Open logs or a model to build a report.</source>
        <translation>打开日志或模型后即可生成报告。</translation>
    </message>
    <message>
        <source>Report preview</source>
        <translation>报告预览</translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Open logs or a model first.</source>
        <translation>请先打开日志或模型。</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 已存在。要替换吗？</translation>
    </message>
    <message>
        <source>No analysis loaded</source>
        <translation>尚未加载分析结果</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <source>Exporting report</source>
        <translation>正在导出报告</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <source>Open the report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Compare with another attempt (File ▸ Compare with…) to fill it</source>
        <translation>与另一次尝试对比（文件 ▸ 对比…）后才有内容</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::ResultView</name>
    <message>
        <source>Add to report</source>
        <translation>加入报告</translation>
    </message>
    <message>
        <source>Possible causes</source>
        <translation>可能原因</translation>
    </message>
    <message>
        <source>Check first</source>
        <translation>优先排查</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>See also</source>
        <translation>相关专题</translation>
    </message>
    <message>
        <source>References</source>
        <translation>参考文档</translation>
    </message>
    <message>
        <source>In the report</source>
        <translation>已加入报告</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::RunsModel</name>
    <message>
        <source>Double-click to correct the role; the checks run again.</source>
        <translation>双击可更正角色，检查会重新运行。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>Why this role</source>
        <translation>判断依据</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SimilarityPlot</name>
    <message>
        <source>Layer (table order)</source>
        <translation>层（表格顺序）</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>SQNR</source>
        <translation>SQNR</translation>
    </message>
    <message>
        <source>first drop: %1</source>
        <translation>首次下降：%1</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SourceView</name>
    <message>
        <source>%1, line %2</source>
        <translation>%1，第 %2 行</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Search (Enter: next, Shift+Enter: previous)</source>
        <translation>搜索（回车：下一个，Shift+回车：上一个）</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>Could not show the source</source>
        <translation>无法显示源文件</translation>
    </message>
    <message>
        <source>Lines %1–%2</source>
        <translation>第 %1–%2 行</translation>
    </message>
    <message>
        <source>Search wrapped around</source>
        <translation>已从头继续搜索</translation>
    </message>
    <message>
        <source>“%1” not found</source>
        <translation>未找到“%1”</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::SymptomPicker</name>
    <message>
        <source>What do you see?</source>
        <translation>你遇到了什么现象？</translation>
    </message>
    <message>
        <source>Search symptoms, causes and advice (e.g. NaN, int16, 高精度)</source>
        <translation>搜索现象、原因和建议（例如 NaN、int16、高精度）</translation>
    </message>
    <message>
        <source>Symptom</source>
        <translation>现象</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Topic %1, commonness %2/10</source>
        <translation>专题 %1，常见度 %2/10</translation>
    </message>
    <message numerus="yes">
        <source>%n topic(s); the most common symptoms first.</source>
        <translation>
            <numerusform>共 %n 个专题；最常见的现象排在前面。</numerusform>
        </translation>
    </message>
    <message>
        <source>Most common</source>
        <translation>最常见</translation>
    </message>
    <message>
        <source>No topic matches “%1”.</source>
        <translation>没有与“%1”匹配的专题。</translation>
    </message>
    <message numerus="yes">
        <source>%n matching topic(s), best first.</source>
        <translation>
            <numerusform>%n 个匹配的专题，最相关的在前。</numerusform>
        </translation>
    </message>
    <message>
        <source>Named by your findings</source>
        <translation>你的数据中发现的问题</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WeightHistogram</name>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>quantization grid</source>
        <translation>量化网格</translation>
    </message>
    <message>
        <source>clip range</source>
        <translation>截断范围</translation>
    </message>
    <message>
        <source>weight value</source>
        <translation>权重值</translation>
    </message>
    <message>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>no weight values</source>
        <translation>没有权重数值</translation>
    </message>
    <message>
        <source>quantization grid (scale %1)</source>
        <translation>量化网格（scale %1）</translation>
    </message>
    <message>
        <source>quantization grid, 1 line per %1 values (scale %2)</source>
        <translation>量化网格，每 %1 个值画一条线（scale %2）</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WeightView</name>
    <message>
        <source>Output channel</source>
        <translation>输出通道</translation>
    </message>
    <message>
        <source>of %1, scale %2</source>
        <translation>共 %1 个，scale %2</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WelcomePanel</name>
    <message>
        <source>Open the folder your training wrote (float, calibration and QAT runs), an exported ONNX model, or the toolchain&apos;s debug text files. QAT Doctor reads them, flags what is off, and walks you through the FAQ with the answers your data can give.</source>
        <translation>打开训练输出的文件夹（float、calibration 和 QAT 运行）、导出的 ONNX 模型或工具链的调试文本文件。QAT Doctor 会读取它们、标出异常，并用你的数据能给出的答案带你走完常见问题排查。</translation>
    </message>
    <message>
        <source>Open log folder…</source>
        <translation>打开日志文件夹…</translation>
    </message>
    <message>
        <source>Open model or debug file…</source>
        <translation>打开模型或调试文件…</translation>
    </message>
    <message>
        <source>Open the demo (float, calibration and QAT runs + a QAT model)</source>
        <translation>打开示例（float、calibration、QAT 运行 + 一个 QAT 模型）</translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation>最近打开：</translation>
    </message>
    <message>
        <source>Tip: drop folders and files anywhere on this window.</source>
        <translation>提示：可以把文件夹和文件直接拖到窗口上。</translation>
    </message>
</context>
<context>
    <name>qatdoctor::ui::WizardPage</name>
    <message>
        <source>Symptom wizard</source>
        <translation>症状向导</translation>
    </message>
    <message>
        <source>All symptoms</source>
        <translation>全部现象</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Back one answer (Backspace, Alt+Left)</source>
        <translation>撤回一步（Backspace、Alt+Left）</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <source>Start this symptom again from its first question</source>
        <translation>从第一个问题重新开始此现象</translation>
    </message>
    <message numerus="yes">
        <source>The FAQ folder %1 has %n problem(s); the wizard shows what loaded.</source>
        <translation>
            <numerusform>常见问题文件夹 %1 中有 %n 处问题；向导仅显示成功加载的内容。</numerusform>
        </translation>
    </message>
    <message>
        <source>Symptoms</source>
        <translation>现象</translation>
    </message>
    <message>
        <source>(auto)</source>
        <translation>（自动）</translation>
    </message>
</context>
</TS>
