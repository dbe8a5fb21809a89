<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BlockEditor</name>
    <message>
        <source>pre-norm: x + F(Norm(x))</source>
        <translation>前置规范化：x + F(Norm(x))</translation>
    </message>
    <message>
        <source>post-norm: Norm(x + F(x))</source>
        <translation>后置规范化：Norm(x + F(x))</translation>
    </message>
    <message>
        <source>Decoder block</source>
        <translation>解码器块</translation>
    </message>
    <message>
        <source>Decoder block around the attention</source>
        <translation>在注意力外包一层解码器块</translation>
    </message>
    <message>
        <source>&amp;Norm</source>
        <translation>规范化(&amp;N)</translation>
    </message>
    <message>
        <source>Norm kind</source>
        <translation>规范化方式</translation>
    </message>
    <message>
        <source>&amp;ε</source>
        <translation>ε(&amp;E)</translation>
    </message>
    <message>
        <source>Epsilon inside the norm&apos;s square root</source>
        <translation>规范化平方根中的 ε</translation>
    </message>
    <message>
        <source>&amp;Placement</source>
        <translation>规范化顺序(&amp;P)</translation>
    </message>
    <message>
        <source>Norm placement</source>
        <translation>规范化顺序：前置或后置</translation>
    </message>
    <message>
        <source>&amp;Activation</source>
        <translation>激活函数(&amp;A)</translation>
    </message>
    <message>
        <source>Feed-forward activation</source>
        <translation>前馈网络的激活函数</translation>
    </message>
    <message>
        <source>Sc&amp;ores ÷ √</source>
        <translation>分数 ÷ √(&amp;O)</translation>
    </message>
    <message>
        <source>Number under the scores&apos; square root</source>
        <translation>分数所除的平方根下的数</translation>
    </message>
    <message>
        <source>&amp;RoPE base</source>
        <translation>RoPE 基数(&amp;R)</translation>
    </message>
    <message>
        <source>This layer&apos;s own RoPE base</source>
        <translation>本层自己的 RoPE 基数</translation>
    </message>
    <message>
        <source>Norms &amp;before the sub-layers</source>
        <translation>子层之前的规范化(&amp;B)</translation>
    </message>
    <message>
        <source>Pre-norms</source>
        <translation>前置规范化</translation>
    </message>
    <message>
        <source>&amp;Takes the stack&apos;s RoPE scaling</source>
        <translation>采用这一栈的 RoPE 缩放(&amp;T)</translation>
    </message>
    <message>
        <source>This layer takes the stack&apos;s RoPE scaling</source>
        <translation>本层采用这一栈的 RoPE 缩放</translation>
    </message>
    <message>
        <source>Final norm of the encoder&apos;s output</source>
        <translation>编码器输出的最终 Norm</translation>
    </message>
    <message>
        <source>Final norm before the vocabulary head</source>
        <translation>词表头之前的最终规范化</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终规范化</translation>
    </message>
    <message>
        <source>Vocabulary head (logits and probabilities)</source>
        <translation>词表头（logits 与概率）</translation>
    </message>
    <message>
        <source>Vocabulary head</source>
        <translation>词表头</translation>
    </message>
    <message>
        <source>Vocabulary labels</source>
        <translation>词表标签</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>解码块</translation>
    </message>
    <message>
        <source>Encoder&apos;s final norm</source>
        <translation>编码器的最终 Norm</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>dₖ = {d_k}</source>
        <translation>dₖ = {d_k}</translation>
    </message>
    <message>
        <source>the stack&apos;s: {base}</source>
        <translation>这一栈的：{base}</translation>
    </message>
    <message>
        <source>{place}: {problem}; kept {old}</source>
        <translation>{place}：{problem}；保留原值 {old}</translation>
    </message>
</context>
<context>
    <name>BusyIndicator</name>
    <message>
        <source>Computing</source>
        <translation>正在计算</translation>
    </message>
    <message>
        <source>Stop computing and take back the edits not yet shown (Redo brings them back)</source>
        <translation>停止计算，撤回尚未显示的编辑（重做可恢复）</translation>
    </message>
</context>
<context>
    <name>CancellableBar</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>CanvasControls</name>
    <message>
        <source>Receiver: the query row in focus</source>
        <translation>接收者：当前聚焦的查询行</translation>
    </message>
    <message>
        <source>Head shown</source>
        <translation>显示的头</translation>
    </message>
    <message>
        <source>All arro&amp;ws</source>
        <translation>全部箭头(&amp;W)</translation>
    </message>
    <message>
        <source>Show all arrows</source>
        <translation>显示全部箭头</translation>
    </message>
    <message>
        <source>With many positions only each row&apos;s strongest arrows are drawn; tick to draw them all</source>
        <translation>位置很多时每行只画最强的箭头；勾选后全部画出</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Fit the frame to the view</source>
        <translation>让画面适应视图</translation>
    </message>
    <message>
        <source>&amp;Receiver</source>
        <translation>接收者(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <translation>头(&amp;H)</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>全部头</translation>
    </message>
    <message>
        <source>Head {n}</source>
        <translation>第 {n} 头</translation>
    </message>
</context>
<context>
    <name>CanvasView</name>
    <message>
        <source>Numbers too small to print at this size: scroll to zoom in</source>
        <translation>此尺寸下数字太小，未显示：滚动鼠标滚轮放大</translation>
    </message>
</context>
<context>
    <name>Checkpoint</name>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>a folder with config.json, *.safetensors and tokenizer.json</source>
        <translation>含 config.json、*.safetensors 和 tokenizer.json 的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>the text the model reads</source>
        <translation>模型读取的文本</translation>
    </message>
    <message>
        <source>optional: a second text, token type 1 (BERT&apos;s sentence B)</source>
        <translation>可选：第二段文本，Token 类型为 1（BERT 的句子 B）</translation>
    </message>
    <message>
        <source>all, or 1-2, 3, 1,3-4</source>
        <translation>全部，或 1-2、3、1,3-4</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Text:</source>
        <translation>文本(&amp;T)：</translation>
    </message>
    <message>
        <source>Text &amp;pair:</source>
        <translation>文本对(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Layers:</source>
        <translation>层(&amp;L)：</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2, trained, from the installed package</source>
        <translation>all-MiniLM-L6-v2，已训练，来自已安装的包</translation>
    </message>
    <message>
        <source>Checkpoint folder</source>
        <translation>检查点文件夹</translation>
    </message>
    <message>
        <source>Importing {name}…</source>
        <translation>正在导入 {name}…</translation>
    </message>
    <message>
        <source>Not imported: cancelled</source>
        <translation>未导入：已取消</translation>
    </message>
    <message>
        <source>Cannot import</source>
        <translation>无法导入</translation>
    </message>
    <message>
        <source>{folder} was not imported:
{error}</source>
        <translation>{folder} 未能导入：
{error}</translation>
    </message>
    <message>
        <source>⚠ not imported: {error}</source>
        <translation>⚠ 未导入：{error}</translation>
    </message>
    <message>
        <source>Imported {name}</source>
        <translation>已导入 {name}</translation>
    </message>
</context>
<context>
    <name>CompareMode</name>
    <message>
        <source>&amp;Compare two settings</source>
        <translation>对比两种设置(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;comparison…</source>
        <translation>导出对比图(&amp;C)…</translation>
    </message>
    <message>
        <source>B =</source>
        <translation>B =</translation>
    </message>
    <message>
        <source>Compare with B =</source>
        <translation>与 B 对比，B =</translation>
    </message>
    <message>
        <source>B swaps the token at position</source>
        <translation>B 交换位置</translation>
    </message>
    <message>
        <source>with the token at position</source>
        <translation>与位置</translation>
    </message>
    <message>
        <source>B ablates a head of layer</source>
        <translation>B 消融其中一个头的层</translation>
    </message>
    <message>
        <source>B ablates head</source>
        <translation>B 消融的头</translation>
    </message>
    <message>
        <source>Why B cannot be shown</source>
        <translation>B 为何无法显示</translation>
    </message>
    <message>
        <source>the other norm (LayerNorm ↔ RMSNorm)</source>
        <translation>另一种规范化（LayerNorm ↔ RMSNorm）</translation>
    </message>
    <message>
        <source>the other placement (pre ↔ post)</source>
        <translation>另一种规范化顺序（前置 ↔ 后置）</translation>
    </message>
    <message>
        <source>causal mask flipped</source>
        <translation>因果掩码取反</translation>
    </message>
    <message>
        <source>√dₖ scaling flipped</source>
        <translation>√dₖ 缩放取反</translation>
    </message>
    <message>
        <source>two tokens swapped (rows paired by token)</source>
        <translation>交换两个 Token（按 Token 配对各行）</translation>
    </message>
    <message>
        <source>one head ablated (its output set to 0)</source>
        <translation>消融一个头（输出置为 0）</translation>
    </message>
    <message>
        <source>current edits vs the opened document</source>
        <translation>当前修改 vs 打开时的文档</translation>
    </message>
    <message>
        <source>layer {n}</source>
        <translation>第 {n} 层</translation>
    </message>
    <message>
        <source>head {n}</source>
        <translation>第 {n} 头</translation>
    </message>
    <message>
        <source>opened document</source>
        <translation>打开时的文档</translation>
    </message>
    <message>
        <source>current edits</source>
        <translation>当前修改</translation>
    </message>
    <message>
        <source>no norm</source>
        <translation>不做规范化</translation>
    </message>
    <message>
        <source>pre-norm</source>
        <translation>前置规范化</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后置规范化</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>不加掩码</translation>
    </message>
    <message>
        <source>scaled by √dₖ</source>
        <translation>除以 √dₖ</translation>
    </message>
    <message>
        <source>not scaled</source>
        <translation>不除以 √dₖ</translation>
    </message>
    <message>
        <source>swapping needs two tokens</source>
        <translation>交换需要至少两个 Token</translation>
    </message>
    <message>
        <source>the same position twice</source>
        <translation>同一位置选了两次</translation>
    </message>
    <message>
        <source>{a} ↔ {b} swapped</source>
        <translation>交换 {a} ↔ {b}</translation>
    </message>
    <message>
        <source>as typed</source>
        <translation>原顺序</translation>
    </message>
    <message>
        <source>layer {l}, head {h} ablated</source>
        <translation>第 {l} 层第 {h} 个头已消融</translation>
    </message>
    <message>
        <source>the document as it is</source>
        <translation>文档原样</translation>
    </message>
    <message>
        <source>Copied the comparison as PNG and SVG</source>
        <translation>已将对比图复制为 PNG 和 SVG</translation>
    </message>
    <message>
        <source>Export comparison</source>
        <translation>导出对比图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>⚠ not exported: {error}</source>
        <translation>⚠ 未导出：{error}</translation>
    </message>
    <message>
        <source>Exported the comparison to {path}</source>
        <translation>已把对比导出到 {path}</translation>
    </message>
</context>
<context>
    <name>DecimalsMenu</name>
    <message>
        <source>&amp;Decimals</source>
        <translation>小数位数(&amp;D)</translation>
    </message>
</context>
<context>
    <name>DiskWatch</name>
    <message>
        <source>File changed on disk</source>
        <translation>文件已在磁盘上更改</translation>
    </message>
    <message>
        <source>{path} was changed on disk (by another window or program) since it was opened or saved here.

Overwrite it with the document in this window?</source>
        <translation>{path} 在此窗口打开或保存之后已在磁盘上被更改（被另一个窗口或程序）。

用此窗口中的文档覆盖它吗？</translation>
    </message>
    <message>
        <source>{path} was changed on disk. This window has unsaved changes.

Reload the file and lose them? No keeps this window&apos;s version; saving will ask before overwriting the file.</source>
        <translation>{path} 已在磁盘上被更改。此窗口有未保存的更改。

重新载入该文件并丢弃这些更改吗？选“否”则保留此窗口的版本；保存时会先询问是否覆盖该文件。</translation>
    </message>
    <message>
        <source>{path} was changed on disk.

Reload it? No keeps this window&apos;s version; saving will ask before overwriting the file.</source>
        <translation>{path} 已在磁盘上被更改。

重新载入吗？选“否”则保留此窗口的版本；保存时会先询问是否覆盖该文件。</translation>
    </message>
    <message>
        <source>⚠ not reloaded: {error}</source>
        <translation>⚠ 未重新载入：{error}</translation>
    </message>
    <message>
        <source>Reloaded {name}</source>
        <translation>已重新载入 {name}</translation>
    </message>
</context>
<context>
    <name>DocumentState</name>
    <message>
        <source>Undone: {what}</source>
        <translation>已撤销：{what}</translation>
    </message>
    <message>
        <source>Redone: {what}</source>
        <translation>已重做：{what}</translation>
    </message>
    <message>
        <source>the computation failed ({error})</source>
        <translation>计算失败（{error}）</translation>
    </message>
    <message>
        <source>{label} → computing…</source>
        <translation>{label} → 正在计算…</translation>
    </message>
    <message>
        <source>{place}: {problem}; kept {old}</source>
        <translation>{place}：{problem}；保留原值 {old}</translation>
    </message>
    <message>
        <source>{label}: {problem}</source>
        <translation>{label}：{problem}</translation>
    </message>
    <message>
        <source>head {n}: {shares}</source>
        <translation>第 {n} 头：{shares}</translation>
    </message>
    <message>
        <source>shares for {token}: {shares}</source>
        <translation>“{token}”的份额：{shares}</translation>
    </message>
</context>
<context>
    <name>EditorPane</name>
    <message>
        <source>Positions n</source>
        <translation>位置数 n</translation>
    </message>
    <message>
        <source>Model width d</source>
        <translation>模型宽度 d</translation>
    </message>
    <message>
        <source>Query/key width dₖ</source>
        <translation>查询/键宽度 dₖ</translation>
    </message>
    <message>
        <source>Value width dᵥ</source>
        <translation>值宽度 dᵥ</translation>
    </message>
    <message>
        <source>Heads h</source>
        <translation>头数 h</translation>
    </message>
    <message>
        <source>X · input rows (one per token)</source>
        <translation>X · 输入行（每个 Token 一行）</translation>
    </message>
    <message>
        <source>Embedding table</source>
        <translation>嵌入表</translation>
    </message>
    <message>
        <source>Matrix editor</source>
        <translation>矩阵编辑区</translation>
    </message>
    <message>
        <source>Last refused input</source>
        <translation>上一次被拒绝的输入</translation>
    </message>
    <message>
        <source>Token labels</source>
        <translation>Token 标签</translation>
    </message>
    <message>
        <source>&amp;Token labels</source>
        <translation>Token 标签(&amp;T)</translation>
    </message>
    <message>
        <source>P · learned positions (one row per position)</source>
        <translation>P · 可学习位置表（每个位置一行）</translation>
    </message>
    <message>
        <source>ALiBi slopes (one per head)</source>
        <translation>ALiBi 斜率（每个头一个）</translation>
    </message>
    <message>
        <source>T · type rows (one per token type)</source>
        <translation>T · 类型行（每种词元类型一行）</translation>
    </message>
    <message>
        <source>γ of the embedding norm</source>
        <translation>嵌入规范化的 γ</translation>
    </message>
    <message>
        <source>β of the embedding norm</source>
        <translation>嵌入规范化的 β</translation>
    </message>
    <message>
        <source>γ of the encoder&apos;s embedding norm</source>
        <translation>编码器嵌入规范化的 γ</translation>
    </message>
    <message>
        <source>β of the encoder&apos;s embedding norm</source>
        <translation>编码器嵌入规范化的 β</translation>
    </message>
    <message>
        <source>enc.X · source rows (one per source token)</source>
        <translation>enc.X · 源输入行（每个源 Token 一行）</translation>
    </message>
    <message>
        <source>&amp;Source tokens (encoder)</source>
        <translation>源 Token（编码器）(&amp;S)</translation>
    </message>
    <message>
        <source>Source tokens</source>
        <translation>源 Token</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Attention options</source>
        <translation>注意力选项</translation>
    </message>
    <message>
        <source>&amp;Causal mask</source>
        <translation>因果掩码(&amp;C)</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Divide &amp;scores by √dₖ</source>
        <translation>分数除以 √dₖ(&amp;S)</translation>
    </message>
    <message>
        <source>Scale scores</source>
        <translation>缩放分数</translation>
    </message>
    <message>
        <source>Cross: divide by √dₖ</source>
        <translation>交叉注意力：除以 √dₖ</translation>
    </message>
    <message>
        <source>Scale cross-attention scores</source>
        <translation>缩放交叉注意力分数</translation>
    </message>
    <message>
        <source>Ablate heads (their output set to 0):</source>
        <translation>消融的头（输出置为 0）：</translation>
    </message>
    <message>
        <source>Head {n}</source>
        <translation>第 {n} 头</translation>
    </message>
    <message>
        <source>Ablate head {n}</source>
        <translation>消融第 {n} 个头</translation>
    </message>
    <message>
        <source>Source positions n</source>
        <translation>源位置数 n</translation>
    </message>
    <message>
        <source>The encoder&apos;s positions, one per source token; the decoder&apos;s positions are resized from its own parts</source>
        <translation>编码器的位置，每个源词元一个；解码器的位置数在解码器的部分里调整</translation>
    </message>
    <message>
        <source>Resizing the document…</source>
        <translation>正在改变文档的尺寸……</translation>
    </message>
    <message>
        <source>The smaller size drops 1 non-zero number. Resize anyway? (Undo brings it back.)</source>
        <translation>缩小尺寸会丢掉 1 个非零数。仍要改变尺寸吗？（撤销可以找回。）</translation>
    </message>
    <message>
        <source>The smaller size drops {count} non-zero numbers. Resize anyway? (Undo brings them back.)</source>
        <translation>缩小尺寸会丢掉 {count} 个非零数。仍要改变尺寸吗？（撤销可以找回。）</translation>
    </message>
    <message>
        <source>Drop numbers?</source>
        <translation>丢掉这些数吗？</translation>
    </message>
    <message>
        <source>{name} grid</source>
        <translation>{name} 网格</translation>
    </message>
</context>
<context>
    <name>ExplainPanel</name>
    <message>
        <source>Explain this step</source>
        <translation>讲解这一步</translation>
    </message>
    <message>
        <source>Show why the step is needed, how it is done, its pitfalls and how to check it</source>
        <translation>显示这一步为什么需要、怎样实现、可能的误解以及如何检查</translation>
    </message>
    <message>
        <source>Step explanation</source>
        <translation>步骤讲解</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>PNG images (one per step)</source>
        <translation>PNG 图片（每步一张）</translation>
    </message>
    <message>
        <source>SVG vector images (one per step)</source>
        <translation>SVG 矢量图（每步一张）</translation>
    </message>
    <message>
        <source>PDF document (one page per step)</source>
        <translation>PDF 文档（每步一页）</translation>
    </message>
    <message>
        <source>Animated GIF</source>
        <translation>GIF 动画</translation>
    </message>
    <message>
        <source>MP4 video (H.264)</source>
        <translation>MP4 视频（H.264）</translation>
    </message>
    <message>
        <source>PowerPoint slides</source>
        <translation>PowerPoint 幻灯片</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export frames</source>
        <translation>导出画面</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Current step ({n} of {count})</source>
        <translation>当前步骤（第 {n} 步，共 {count} 步）</translation>
    </message>
    <message>
        <source>All {count} steps</source>
        <translation>全部 {count} 步</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Export the current step</source>
        <translation>导出当前步骤</translation>
    </message>
    <message>
        <source>Export all steps</source>
        <translation>导出全部步骤</translation>
    </message>
    <message>
        <source>Export a range of steps</source>
        <translation>导出一段步骤</translation>
    </message>
    <message>
        <source>First step of the range</source>
        <translation>范围的第一步</translation>
    </message>
    <message>
        <source>Last step of the range</source>
        <translation>范围的最后一步</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步骤：</translation>
    </message>
    <message>
        <source>By width</source>
        <translation>按宽度</translation>
    </message>
    <message>
        <source>By scale</source>
        <translation>按比例</translation>
    </message>
    <message>
        <source>Size by width in pixels</source>
        <translation>按像素宽度定尺寸</translation>
    </message>
    <message>
        <source>Size by scale factor</source>
        <translation>按缩放比例定尺寸</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>尺寸：</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>&amp;Width:</source>
        <translation>宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>Width in pixels</source>
        <translation>宽度（像素）</translation>
    </message>
    <message>
        <source>S&amp;cale:</source>
        <translation>比例(&amp;C)：</translation>
    </message>
    <message>
        <source>Scale factor, pixels per canvas unit</source>
        <translation>缩放比例：每个画布单位的像素数</translation>
    </message>
    <message>
        <source>&amp;Aspect:</source>
        <translation>宽高比(&amp;A)：</translation>
    </message>
    <message>
        <source>Shape of every picture, page and slide</source>
        <translation>每张图片、每页和每张幻灯片的宽高比</translation>
    </message>
    <message>
        <source>Pixels:</source>
        <translation>像素：</translation>
    </message>
    <message>
        <source>Size of every exported picture</source>
        <translation>每张导出图片的尺寸</translation>
    </message>
    <message>
        <source>Slides as pictures (not editable)</source>
        <translation>幻灯片为图片（不可编辑）</translation>
    </message>
    <message>
        <source>PowerPoint:</source>
        <translation>PowerPoint：</translation>
    </message>
    <message>
        <source>Transparent background</source>
        <translation>透明背景</translation>
    </message>
    <message>
        <source>Background:</source>
        <translation>背景：</translation>
    </message>
    <message>
        <source>Print the step&apos;s summary under the frame</source>
        <translation>在画面下方印出这一步的概述</translation>
    </message>
    <message>
        <source>Caption:</source>
        <translation>说明文字：</translation>
    </message>
    <message>
        <source>Slide (light)</source>
        <translation>幻灯片（浅色）</translation>
    </message>
    <message>
        <source>High contrast (print)</source>
        <translation>高对比度（打印）</translation>
    </message>
    <message>
        <source>T&amp;heme:</source>
        <translation>主题(&amp;H)：</translation>
    </message>
    <message>
        <source>Colour theme of the exported frames</source>
        <translation>导出画面的配色主题</translation>
    </message>
    <message>
        <source>As the document ({places})</source>
        <translation>按文档设置 ({places})</translation>
    </message>
    <message>
        <source>&amp;Decimals:</source>
        <translation>小数位数(&amp;D):</translation>
    </message>
    <message>
        <source>Decimals the numbers print</source>
        <translation>数字显示的小数位数</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Language of titles, captions and notes</source>
        <translation>标题、说明文字和演讲者备注的语言</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Seconds per step:</source>
        <translation>每步秒数：</translation>
    </message>
    <message>
        <source>Seconds each step is shown in an animation</source>
        <translation>动画中每一步显示的秒数</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Choose where to save</source>
        <translation>选择保存位置</translation>
    </message>
    <message>
        <source>Save &amp;to:</source>
        <translation>保存到(&amp;T)：</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>目标位置</translation>
    </message>
    <message>
        <source>Destination file or folder</source>
        <translation>目标文件或文件夹</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>The whole document&apos;s steps</source>
        <translation>整个文档的各步</translation>
    </message>
    <message>
        <source>Every token&apos;s draw, one frame each ({count})</source>
        <translation>每个 Token 的抽取，各一帧（共 {count} 帧）</translation>
    </message>
    <message>
        <source>One file for the whole run: GIF, MP4, PDF or PowerPoint</source>
        <translation>整个生成过程写成一个文件：GIF、MP4、PDF 或 PowerPoint</translation>
    </message>
    <message>
        <source>The steps of token</source>
        <translation>第</translation>
    </message>
    <message>
        <source>Export the whole document&apos;s steps</source>
        <translation>导出整个文档的各步</translation>
    </message>
    <message>
        <source>Export every token&apos;s draw</source>
        <translation>导出每个 Token 的抽取</translation>
    </message>
    <message>
        <source>Export the steps of one token</source>
        <translation>导出某一个 Token 的各步</translation>
    </message>
    <message>
        <source>Token of the run, counted from 1</source>
        <translation>生成过程中的第几个 Token，从 1 数起</translation>
    </message>
    <message>
        <source>Generation run:</source>
        <translation>生成过程：</translation>
    </message>
    <message>
        <source>Generation run</source>
        <translation>生成过程</translation>
    </message>
    <message>
        <source>of {count} “{label}”</source>
        <translation>个 Token（共 {count} 个）“{label}”的各步</translation>
    </message>
    <message>
        <source>Every token&apos;s draw is one file: choose GIF, MP4, PDF or PowerPoint, or the steps of one token.</source>
        <translation>每个 Token 的抽取写成一个文件：请选 GIF、MP4、PDF 或 PowerPoint，或只导出某一个 Token 的各步。</translation>
    </message>
    <message>
        <source>&amp;Receiver:</source>
        <translation>接收者(&amp;R)：</translation>
    </message>
    <message>
        <source>Query in focus</source>
        <translation>聚焦的查询行</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>全部头</translation>
    </message>
    <message>
        <source>Head {n}</source>
        <translation>第 {n} 头</translation>
    </message>
    <message>
        <source>H&amp;ead:</source>
        <translation>头(&amp;E)：</translation>
    </message>
    <message>
        <source>Head shown</source>
        <translation>显示的头</translation>
    </message>
    <message>
        <source>The receiver&apos;s arithmetic, step by step</source>
        <translation>接收者这一行的逐项计算</translation>
    </message>
    <message>
        <source>Wor&amp;ked row:</source>
        <translation>逐项计算(&amp;K)：</translation>
    </message>
    <message>
        <source>Worked row: the receiver&apos;s arithmetic, step by step</source>
        <translation>逐项计算：接收者这一行的每一步算式</translation>
    </message>
    <message>
        <source>Choose where to save the export.</source>
        <translation>请选择导出的保存位置。</translation>
    </message>
    <message>
        <source>Save into &amp;folder:</source>
        <translation>保存到文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>Export into folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <source>Export as</source>
        <translation>导出为</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>导出进度</translation>
    </message>
    <message>
        <source>Exporting step {done} of {total}: {title}</source>
        <translation>正在导出第 {done} 步（共 {total} 步）：{title}</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>GenerationPanel</name>
    <message>
        <source>&amp;Generate next</source>
        <translation>生成下一个 Token(&amp;G)</translation>
    </message>
    <message>
        <source>Generate next</source>
        <translation>生成下一个</translation>
    </message>
    <message>
        <source>Greedy or sampling</source>
        <translation>贪心或采样</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>Top-&amp;k</source>
        <translation>Top-k(&amp;K)</translation>
    </message>
    <message>
        <source>Top-&amp;p</source>
        <translation>Top-p(&amp;P)</translation>
    </message>
    <message>
        <source>See&amp;d</source>
        <translation>种子(&amp;D)</translation>
    </message>
    <message>
        <source>or click a bar to pick its token</source>
        <translation>或点击一根条形，选它的 Token</translation>
    </message>
    <message>
        <source>Append the next token, drawn from the last position&apos;s probabilities (Ctrl+G)</source>
        <translation>从最后一个位置的概率中抽取下一个 Token 并追加（Ctrl+G）</translation>
    </message>
</context>
<context>
    <name>GlossaryDock</name>
    <message>
        <source>Find &amp;term:</source>
        <translation>查找术语(&amp;T)：</translation>
    </message>
    <message>
        <source>A term, or a word of its definition</source>
        <translation>术语名，或释义中的字词</translation>
    </message>
    <message>
        <source>Search the glossary</source>
        <translation>搜索术语表</translation>
    </message>
    <message>
        <source>Glossary terms</source>
        <translation>术语列表</translation>
    </message>
    <message>
        <source>Definition and example</source>
        <translation>释义与示例</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>{shown} of {total} terms</source>
        <translation>显示 {shown} / {total} 个术语</translation>
    </message>
    <message>
        <source>Example:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>Close the glossary</source>
        <translation>关闭术语表</translation>
    </message>
    <message>
        <source>Float the glossary</source>
        <translation>让术语表浮动</translation>
    </message>
</context>
<context>
    <name>Import</name>
    <message>
        <source>Matrices (*.npy *.csv *.tsv *.txt);;All files (*)</source>
        <translation>矩阵 (*.npy *.csv *.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import matrix</source>
        <translation>导入矩阵</translation>
    </message>
    <message>
        <source>Import into which grid?</source>
        <translation>导入到哪个网格？</translation>
    </message>
    <message>
        <source>Cannot import</source>
        <translation>无法导入</translation>
    </message>
    <message>
        <source>{source} was not imported: {problem}.</source>
        <translation>没有导入 {source}：{problem}。</translation>
    </message>
    <message>
        <source>import into {name}: {problem}; nothing changed</source>
        <translation>导入到 {name}：{problem}；未作任何改动</translation>
    </message>
    <message>
        <source>{file} was not imported:
{error}</source>
        <translation>没有导入 {file}：
{error}</translation>
    </message>
    <message>
        <source>import: {problem}; nothing changed</source>
        <translation>导入：{problem}；未作任何改动</translation>
    </message>
    <message>
        <source>Import a matrix into {name}</source>
        <translation>把矩阵导入 {name}</translation>
    </message>
</context>
<context>
    <name>LabelRowModel</name>
    <message>
        <source>{noun} label of {place} {index}: {label}</source>
        <translation>{place} {index} 的{noun}标签：{label}</translation>
    </message>
    <message>
        <source>{place}: a label cannot be empty; kept {old}</source>
        <translation>{place}：标签不能为空；保留原值 {old}</translation>
    </message>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>词项</translation>
    </message>
</context>
<context>
    <name>LayerBar</name>
    <message>
        <source>Layer {n}</source>
        <translation>第 {n} 层</translation>
    </message>
    <message>
        <source>Encoder layer {n}</source>
        <translation>编码器第 {n} 层</translation>
    </message>
    <message>
        <source>Inputs and positions</source>
        <translation>输入与位置编码</translation>
    </message>
    <message>
        <source>Encoder: source tokens</source>
        <translation>编码器：源 Token</translation>
    </message>
    <message>
        <source>Head: final norm and vocabulary</source>
        <translation>输出头：最终 Norm 与词表</translation>
    </message>
    <message>
        <source>S&amp;how</source>
        <translation>显示(&amp;H)</translation>
    </message>
    <message>
        <source>Part of the model shown</source>
        <translation>显示模型的哪一部分</translation>
    </message>
    <message>
        <source>&amp;Add layer</source>
        <translation>添加层(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Duplicate layer</source>
        <translation>复制层(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Remove layer</source>
        <translation>删除层(&amp;R)</translation>
    </message>
    <message>
        <source>Move layer &amp;up</source>
        <translation>层上移(&amp;U)</translation>
    </message>
    <message>
        <source>Move layer do&amp;wn</source>
        <translation>层下移(&amp;W)</translation>
    </message>
    <message>
        <source>+ Add</source>
        <translation>+ 添加</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>Pinned to this part</source>
        <translation>已固定在这一部分</translation>
    </message>
    <message>
        <source>The editor stays on this part. Press to follow the timeline&apos;s step again</source>
        <translation>编辑器停在这一部分。按下可重新跟随时间轴的步骤</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Follows the timeline&apos;s step</source>
        <translation>跟随时间轴的步骤</translation>
    </message>
    <message>
        <source>The editor shows the part of the timeline&apos;s step. Press, or choose a part, to pin it</source>
        <translation>编辑器显示时间轴当前步骤所在的部分。按下或手动选择一个部分即可固定</translation>
    </message>
</context>
<context>
    <name>MatrixModel</name>
    <message>
        <source>{name}, token {token}, feature {col}: {value}</source>
        <translation>{name}，Token {token}，特征 {col}：{value}</translation>
    </message>
    <message>
        <source>{name}, column {col}: {value}</source>
        <translation>{name}，第 {col} 列：{value}</translation>
    </message>
    <message>
        <source>{name}, row {row}, column {col}: {value}</source>
        <translation>{name}，第 {row} 行第 {col} 列：{value}</translation>
    </message>
    <message>
        <source>{place}: empty, type a number; kept {old}</source>
        <translation>{place}：内容为空，请输入数字；保留原值 {old}</translation>
    </message>
    <message>
        <source>{place}: “{text}” is not a finite number; kept {old}</source>
        <translation>{place}：“{text}”不是有限数；保留原值 {old}</translation>
    </message>
    <message>
        <source>{place}: “{text}” is not a number; kept {old}</source>
        <translation>{place}：“{text}”不是数字；保留原值 {old}</translation>
    </message>
    <message>
        <source>paste into {name}: {problem}; nothing changed</source>
        <translation>粘贴到 {name}：{problem}；未作任何改动</translation>
    </message>
</context>
<context>
    <name>PositionsEditor</name>
    <message>
        <source>none (order is invisible)</source>
        <translation>无（看不出次序）</translation>
    </message>
    <message>
        <source>sinusoidal (added rows)</source>
        <translation>正弦（加到输入行上）</translation>
    </message>
    <message>
        <source>learned table (added rows)</source>
        <translation>可学习表（加到输入行上）</translation>
    </message>
    <message>
        <source>RoPE (turns q and k)</source>
        <translation>RoPE（旋转 q 和 k）</translation>
    </message>
    <message>
        <source>ALiBi (bias on the scores)</source>
        <translation>ALiBi（给分数加偏置）</translation>
    </message>
    <message>
        <source>half: i with i + r/2 (Llama)</source>
        <translation>half：i 与 i + r/2 配对（Llama）</translation>
    </message>
    <message>
        <source>interleaved: 2i with 2i+1 (GPT-J)</source>
        <translation>interleaved：2i 与 2i+1 配对（GPT-J）</translation>
    </message>
    <message>
        <source>interleaved: sin, cos of each pair (2017)</source>
        <translation>交错：每对的 sin、cos 相邻（2017）</translation>
    </message>
    <message>
        <source>halves: every sine, then every cosine (Marian)</source>
        <translation>前后两半：先全部正弦，再全部余弦（Marian）</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>&amp;Kind</source>
        <translation>种类(&amp;K)</translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation>位置编码种类</translation>
    </message>
    <message>
        <source>&amp;Base</source>
        <translation>底数(&amp;B)</translation>
    </message>
    <message>
        <source>Wavelength base</source>
        <translation>波长底数</translation>
    </message>
    <message>
        <source>&amp;Rotary dims</source>
        <translation>旋转维数(&amp;R)</translation>
    </message>
    <message>
        <source>Columns of each head that RoPE turns</source>
        <translation>RoPE 旋转的每个头的列数</translation>
    </message>
    <message>
        <source>&amp;Pairing</source>
        <translation>配对方式(&amp;P)</translation>
    </message>
    <message>
        <source>RoPE pairing</source>
        <translation>RoPE 配对方式</translation>
    </message>
    <message>
        <source>&amp;Layout</source>
        <translation>排列(&amp;L)</translation>
    </message>
    <message>
        <source>Where each pair&apos;s sine and cosine sit</source>
        <translation>每对正弦与余弦所在的列</translation>
    </message>
    <message>
        <source>&amp;Offset</source>
        <translation>偏移(&amp;O)</translation>
    </message>
    <message>
        <source>Table row of the first position</source>
        <translation>第一个位置对应的表行</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>RoPE scaling of the frequencies</source>
        <translation>RoPE 频率的缩放</translation>
    </message>
    <message>
        <source>positions.base: {problem}; kept {old}</source>
        <translation>positions.base：{problem}；保留原值 {old}</translation>
    </message>
</context>
<context>
    <name>Presenter</name>
    <message>
        <source>&amp;Present</source>
        <translation>放映(&amp;P)</translation>
    </message>
    <message>
        <source>Show the frame full screen; arrows and Page keys step, Esc leaves</source>
        <translation>全屏显示当前画面；方向键和翻页键切换步骤，Esc 退出</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>New {family} preset: {note}</source>
        <translation>新建 {family} 预设：{note}</translation>
    </message>
    <message>
        <source>New from &amp;architecture</source>
        <translation>按架构新建(&amp;A)</translation>
    </message>
</context>
<context>
    <name>Progress</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
</context>
<context>
    <name>RecentMenu</name>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>No recent documents</source>
        <translation>没有最近的文档</translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <source>Document not found</source>
        <translation>找不到文档</translation>
    </message>
    <message>
        <source>{path} is no longer there (moved, renamed or deleted). It was removed from the recent documents.</source>
        <translation>{path} 已不在原处（被移动、改名或删除），已从最近文档中移除。</translation>
    </message>
</context>
<context>
    <name>Recovery</name>
    <message>
        <source>of {path}</source>
        <translation>原文件 {path}</translation>
    </message>
    <message>
        <source>never saved to a file</source>
        <translation>从未保存为文件</translation>
    </message>
    <message>
        <source>Restore unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>Restore unsaved work from {time}?

“{title}”, {where}. QKV Studio ended before it was saved. No deletes this copy.</source>
        <translation>要恢复 {time} 的未保存工作吗？

“{title}”，{where}。QKV Studio 在保存之前就结束了。选“否”会删除这份副本。</translation>
    </message>
    <message>
        <source>Cannot restore</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>The copy from {time} cannot be read. It was kept, unchanged, at
{path}
{error}</source>
        <translation>{time} 的副本无法读取。它已原样保留在
{path}
{error}</translation>
    </message>
    <message>
        <source>Not restored: cancelled. The copy was kept at {path}</source>
        <translation>未恢复：已取消。副本保留在 {path}</translation>
    </message>
    <message>
        <source>Restoring unsaved work from {time}…</source>
        <translation>正在恢复 {time} 的未保存工作…</translation>
    </message>
    <message>
        <source>Restored unsaved work from {time}</source>
        <translation>已恢复 {time} 的未保存工作</translation>
    </message>
</context>
<context>
    <name>Relocating</name>
    <message>
        <source>Open with it anyway</source>
        <translation>仍然用它打开</translation>
    </message>
    <message>
        <source>Find the checkpoint folder…</source>
        <translation>找到检查点文件夹…</translation>
    </message>
    <message>
        <source>Where the checkpoint&apos;s files are now</source>
        <translation>检查点文件现在所在的文件夹</translation>
    </message>
</context>
<context>
    <name>RunLevel</name>
    <message>
        <source>Generation run:</source>
        <translation>生成过程：</translation>
    </message>
    <message>
        <source>Whole document</source>
        <translation>整个文档</translation>
    </message>
    <message>
        <source>The whole document&apos;s steps, where edits apply</source>
        <translation>整个文档的步骤，编辑作用于此</translation>
    </message>
    <message>
        <source>Generation run</source>
        <translation>生成过程</translation>
    </message>
    <message>
        <source>The steps that drew {token}: the prompt and the tokens before it</source>
        <translation>抽出{token}的步骤：提示词及其之前的 Token</translation>
    </message>
    <message>
        <source>Viewing {place} of the run: the steps that drew it, read-only. Edits apply to the whole document.</source>
        <translation>正在查看生成过程中的{place}：抽出它的步骤，只读。编辑作用于整个文档。</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>a built-in example</source>
        <translation>一个内置示例</translation>
    </message>
    <message>
        <source>QKV Studio ended while drawing the first frame of {path} last time: it was not opened again; showing F11</source>
        <translation>上次 QKV Studio 在绘制 {path} 的第一帧时结束：这次不再打开它，改为显示 F11</translation>
    </message>
    <message>
        <source>QKV Studio ended while opening {path} last time: it was not opened again; showing F11</source>
        <translation>上次 QKV Studio 在打开 {path} 时结束：这次不再打开它，改为显示 F11</translation>
    </message>
    <message>
        <source>The last document could not be opened again ({error}); showing F11</source>
        <translation>上次的文档无法再次打开（{error}），改为显示 F11</translation>
    </message>
</context>
<context>
    <name>StepWeights</name>
    <message>
        <source>Preparing</source>
        <translation>正在准备</translation>
    </message>
    <message>
        <source>Stop preparing this step&apos;s weights and go back to the step shown</source>
        <translation>停止准备这一步的权重，回到正在显示的那一步</translation>
    </message>
</context>
<context>
    <name>StudioWindow</name>
    <message>
        <source>Attention canvas</source>
        <translation>注意力画布</translation>
    </message>
    <message>
        <source>Opened {title} → {shares}</source>
        <translation>已打开 {title} → {shares}</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;example</source>
        <translation>打开示例(&amp;E)</translation>
    </message>
    <message>
        <source>Open &amp;checkpoint…</source>
        <translation>打开检查点(&amp;C)…</translation>
    </message>
    <message>
        <source>A Hugging Face model folder (gpt2, llama, mistral, qwen2, qwen3, gpt_neox, gemma, gemma2, gemma3_text, phi, phi3, opt, bert, stablelm, starcoder2, olmo2, mixtral, qwen3_moe, qwen2_moe) computing a text you type</source>
        <translation>Hugging Face 模型文件夹（gpt2、llama、mistral、qwen2、qwen3、gpt_neox、gemma、gemma2、gemma3_text、phi、phi3、opt、bert、stablelm、starcoder2、olmo2、mixtral、qwen3_moe、qwen2_moe），计算你输入的文本</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save self-contained &amp;copy…</source>
        <translation>保存自包含副本(&amp;C)…</translation>
    </message>
    <message>
        <source>A copy holding every weight&apos;s numbers, which opens without the checkpoint the weights were read from (a saved document otherwise names that checkpoint&apos;s file)</source>
        <translation>一份写入了全部权重数值的副本，打开它不再需要读出这些权重的检查点（否则保存的文档只写明那个检查点文件）</translation>
    </message>
    <message>
        <source>Opened {name}, its checkpoint read from where you said: save it to keep that</source>
        <translation>已打开 {name}，检查点从你指定的位置读取：保存文档即可记住这个位置</translation>
    </message>
    <message>
        <source>Save self-contained copy</source>
        <translation>保存自包含副本</translation>
    </message>
    <message>
        <source>Saved a self-contained copy to {path}</source>
        <translation>已将自包含副本保存到 {path}</translation>
    </message>
    <message>
        <source>&amp;Import matrix…</source>
        <translation>导入矩阵(&amp;I)…</translation>
    </message>
    <message>
        <source>Numbers from a .npy, CSV or text file into the selected grid</source>
        <translation>把 .npy、CSV 或文本文件中的数填入选中的网格</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Copy &amp;frame (PNG and SVG)</source>
        <translation>复制画面(&amp;F)（PNG 与 SVG）</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Fit frame</source>
        <translation>画面适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Zoom to the step</source>
        <translation>放大到本步(&amp;Z)</translation>
    </message>
    <message>
        <source>Fill the canvas with the step&apos;s picture (or double-click it); Fit frame goes back</source>
        <translation>让本步的图占满画布（或双击画布）；“画面适应窗口”可恢复原样</translation>
    </message>
    <message>
        <source>&amp;Step</source>
        <translation>步骤(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Play / &amp;pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;First</source>
        <translation>第一步(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Last</source>
        <translation>最后一步(&amp;L)</translation>
    </message>
    <message>
        <source>Exported {count} file(s) to {folder}</source>
        <translation>已导出 {count} 个文件到 {folder}</translation>
    </message>
    <message>
        <source>Not copied</source>
        <translation>未复制</translation>
    </message>
    <message>
        <source>The frame was not copied:
{error}</source>
        <translation>画面未复制：
{error}</translation>
    </message>
    <message>
        <source>⚠ not copied: {error}</source>
        <translation>⚠ 未复制：{error}</translation>
    </message>
    <message>
        <source>Copied the frame as PNG and SVG</source>
        <translation>已把画面复制为 PNG 和 SVG</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Scenario documents (*.qkv.json *.json);;All files (*)</source>
        <translation>场景文档 (*.qkv.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <source>Not opened: cancelled</source>
        <translation>未打开：已取消</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>{path} was not opened:
{error}</source>
        <translation>没有打开 {path}：
{error}</translation>
    </message>
    <message>
        <source>⚠ not opened: {error}</source>
        <translation>⚠ 未打开：{error}</translation>
    </message>
    <message>
        <source>Opened {name}</source>
        <translation>已打开 {name}</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Scenario documents (*.qkv.json)</source>
        <translation>场景文档 (*.qkv.json)</translation>
    </message>
    <message>
        <source>Saving {name}…</source>
        <translation>正在保存 {name}…</translation>
    </message>
    <message>
        <source>Not saved: cancelled</source>
        <translation>未保存：已取消</translation>
    </message>
    <message>
        <source>Not saved: {path} changed on disk</source>
        <translation>未保存：{path} 已在磁盘上被更改</translation>
    </message>
    <message>
        <source>{title} was not opened:
{error}</source>
        <translation>没有打开 {title}：
{error}</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>Could not save to {path}: {problem}.
The file on disk was left as it was; your changes are still open in this window.</source>
        <translation>无法保存到 {path}：{problem}。
磁盘上的文件保持原样；你的改动仍在这个窗口中。</translation>
    </message>
    <message>
        <source>⚠ not saved to {path}: {problem}</source>
        <translation>⚠ 未保存到 {path}：{problem}</translation>
    </message>
    <message>
        <source>Saved {path}, the edits too; it opens again once its checkpoint is back: {problem}</source>
        <translation>已保存 {path}，编辑也在其中；它的检查点回到原处后即可再次打开：{problem}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的改动</translation>
    </message>
    <message>
        <source>This document has unsaved changes. Save them first?</source>
        <translation>这份文档有未保存的改动。先保存吗？</translation>
    </message>
    <message>
        <source>⚠ not saved: {problem}</source>
        <translation>⚠ 未保存：{problem}</translation>
    </message>
    <message>
        <source>step {n} ({step}) cannot be shown: {problem}</source>
        <translation>第 {n} 步（{step}）无法显示：{problem}</translation>
    </message>
</context>
<context>
    <name>SwapDialog</name>
    <message>
        <source>Swap tokens</source>
        <translation>交换 Token</translation>
    </message>
    <message>
        <source>&amp;Token</source>
        <translation>Token(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;with token</source>
        <translation>与 Token(&amp;W)</translation>
    </message>
</context>
<context>
    <name>SwapTokensAction</name>
    <message>
        <source>S&amp;wap tokens…</source>
        <translation>交换 Token(&amp;W)…</translation>
    </message>
</context>
<context>
    <name>Timeline</name>
    <message>
        <source>Step timeline</source>
        <translation>步骤时间线</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation>播放或暂停</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Dwell time per step</source>
        <translation>每步停留时间</translation>
    </message>
    <message>
        <source>&amp;Dwell</source>
        <translation>停留(&amp;D)</translation>
    </message>
    <message>
        <source>Current step</source>
        <translation>当前步骤</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>What this step does</source>
        <translation>这一步做什么</translation>
    </message>
    <message>
        <source>How to check this step</source>
        <translation>如何检查这一步</translation>
    </message>
    <message>
        <source>How long Play stays on each step</source>
        <translation>播放时在每一步停留多久</translation>
    </message>
    <message>
        <source>Reduce motion is on: at least {seconds} s per step</source>
        <translation>已开启“减少动态效果”：每步至少 {seconds} 秒</translation>
    </message>
    <message>
        <source>Step {n}: {title}</source>
        <translation>第 {n} 步：{title}</translation>
    </message>
    <message>
        <source>open</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>collapsed</source>
        <translation>已折叠</translation>
    </message>
    <message>
        <source>{group}: {count} steps, {state}</source>
        <translation>{group}：{count} 个步骤，{state}</translation>
    </message>
    <message>
        <source>Show or hide the steps of {group}</source>
        <translation>显示或隐藏{group}的步骤</translation>
    </message>
    <message>
        <source>Step {n} of {count} · {title}</source>
        <translation>第 {n} 步（共 {count} 步）· {title}</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
</context>
<context>
    <name>UndoActions</name>
    <message>
        <source>&amp;Undo {what}</source>
        <translation>撤销(&amp;U) {what}</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo {what}</source>
        <translation>重做(&amp;R) {what}</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
</context>
<context>
    <name>ViewMenu</name>
    <message>
        <source>E&amp;xplain this step</source>
        <translation>讲解这一步(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Worked row</source>
        <translation>逐项计算(&amp;W)</translation>
    </message>
    <message>
        <source>Show the receiver&apos;s arithmetic at the scores, shares and mix steps</source>
        <translation>在分数、份额与混合三步显示接收者这一行的逐项计算</translation>
    </message>
    <message>
        <source>&amp;Focus on the frame</source>
        <translation>专注画面(&amp;F)</translation>
    </message>
    <message>
        <source>Fold the editor away so the frame and its numbers are drawn larger</source>
        <translation>收起编辑器，让画面和其中的数字画得更大</translation>
    </message>
    <message>
        <source>&amp;Model view</source>
        <translation>模型总览(&amp;M)</translation>
    </message>
    <message>
        <source>Every layer × head&apos;s shares at once, with each head&apos;s share on the first key</source>
        <translation>一次看到每层每个头的份额，以及每个头在第一个键上的份额</translation>
    </message>
    <message>
        <source>&amp;Logit lens</source>
        <translation>逐层读出(&amp;L)</translation>
    </message>
    <message>
        <source>What the model would predict at each position if it stopped after each layer</source>
        <translation>假如模型在每一层之后就停下，它在每个位置会预测什么</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;High contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <source>Reduce &amp;motion</source>
        <translation>减少动态效果(&amp;M)</translation>
    </message>
    <message>
        <source>Play stays at least 5 s on each step</source>
        <translation>播放时每一步至少停留 5 秒</translation>
    </message>
</context>
</TS>
