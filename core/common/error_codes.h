// Every error and warning code the tool gives: the contract of Error::code (core/common/result.h).
// Codes appear in `--json` output and in the report's appendix, so they are never renamed; code
// that decides by a code compares with these constants, never with a literal. A test
// (tests/common/error_codes_test.cpp) fails on a code in the sources that is missing here.
// kCancelledCode ("cancelled", core/common/progress.h) is the one code outside this list.
#pragma once

namespace qatdoctor::core::codes {

// io.*
// a file or folder could not be opened (missing, permissions)
inline constexpr const char kIoOpen[] = "io.open";
// reading failed part-way (I/O error, a short read)
inline constexpr const char kIoRead[] = "io.read";
// writing an output failed (disk full, permissions)
inline constexpr const char kIoWrite[] = "io.write";
// an output already exists and --force / the confirmation did not allow replacing it
inline constexpr const char kIoExists[] = "io.exists";
// a FIFO, device or folder where a regular file is needed (never read or replaced)
inline constexpr const char kIoNotRegular[] = "io.not_regular";
// past the size this reader accepts (an ONNX file over 2 GiB, a session or text file past its limit)
inline constexpr const char kIoTooLarge[] = "io.too_large";

// input.*
// no row of the input table recognises the path
inline constexpr const char kInputUnknownFormat[] = "input.unknown_format";

// folder.*
// (warning) a folder scan stopped at its entry limit; names the folder
inline constexpr const char kFolderCapped[] = "folder.capped";

// logs.*
// no training log in a folder; a folder with models or toolchain files still loads
inline constexpr const char kLogsNone[] = "logs.none";
// a folder given where one log file is expected
inline constexpr const char kLogsFormat[] = "logs.format";
// (warning) a log file with nothing in it (yet)
inline constexpr const char kLogsEmpty[] = "logs.empty";
// (warning) a file named like a log that the scan turned down, with the reason
inline constexpr const char kLogsSkipped[] = "logs.skipped";
// (warning) a log shrank while it was read (copytruncate) and was read again
inline constexpr const char kLogsTruncatedWhileRead[] = "logs.truncated_while_read";
// (warning) the last line has no end (a run still writing, or a cut file)
inline constexpr const char kLogsPartialLine[] = "logs.partial_line";
// (warning) a line over 1 MiB, skipped
inline constexpr const char kLogsLongLine[] = "logs.long_line";
// (warning) control bytes in a line, skipped
inline constexpr const char kLogsBinary[] = "logs.binary";
// (warning) a line that is not UTF-8, read as bytes
inline constexpr const char kLogsInvalidUtf8[] = "logs.invalid_utf8";
// (warning) a CSV row with the wrong number of fields
inline constexpr const char kLogsCsvColumns[] = "logs.csv_columns";
// (warning) a JSON-lines record that does not parse
inline constexpr const char kLogsJsonlSyntax[] = "logs.jsonl_syntax";
// (warning) a JSON history (trainer_state.json) that does not parse
inline constexpr const char kLogsJsonSyntax[] = "logs.json_syntax";
// (warning) JSON nested past the reader's limit
inline constexpr const char kLogsJsonDepth[] = "logs.json_depth";
// (warning) a TensorBoard record whose length framing is broken
inline constexpr const char kLogsTfeventsFraming[] = "logs.tfevents_framing";
// (warning) a TensorBoard record with a wrong checksum, skipped
inline constexpr const char kLogsTfeventsCrc[] = "logs.tfevents_crc";
// (warning) a TensorBoard record that is no Event
inline constexpr const char kLogsTfeventsParse[] = "logs.tfevents_parse";
// (warning) a TensorBoard file cut inside a record
inline constexpr const char kLogsTfeventsTruncated[] = "logs.tfevents_truncated";

// onnx.*
// not an ONNX ModelProto
inline constexpr const char kOnnxNotOnnx[] = "onnx.not_onnx";
// a corrupt or truncated ONNX file
inline constexpr const char kOnnxParse[] = "onnx.parse";
// an ONNX file cut after its graph (no opset_import)
inline constexpr const char kOnnxTruncated[] = "onnx.truncated";
// graphs nested in graphs past kMaxOnnxNesting
inline constexpr const char kOnnxTooDeep[] = "onnx.too_deep";
// a tensor whose declared size does not match its bytes
inline constexpr const char kOnnxTensorSize[] = "onnx.tensor_size";
// a tensor of an element type the reader does not decode
inline constexpr const char kOnnxTensorType[] = "onnx.tensor_type";
// an external-data entry that is malformed (offset, length)
inline constexpr const char kOnnxExternalBad[] = "onnx.external_bad";
// an external-data file that is not there
inline constexpr const char kOnnxExternalMissing[] = "onnx.external_missing";
// an external-data location outside the model's folder (absolute, .., symlink, not a regular file)
inline constexpr const char kOnnxExternalEscape[] = "onnx.external_escape";
// a value asked as a constant that is computed
inline constexpr const char kOnnxNotConstant[] = "onnx.not_constant";
// (warning) two nodes write one tensor
inline constexpr const char kOnnxDuplicateOutput[] = "onnx.duplicate_output";
// (warning) a node reads a tensor nothing produces (taken as a graph input)
inline constexpr const char kOnnxDanglingInput[] = "onnx.dangling_input";

// model.*
// a layer table without a graph (printed models) asked for graph work
inline constexpr const char kModelNoGraph[] = "model.no_graph";
// a layer without a weight asked for its weight
inline constexpr const char kModelNoWeight[] = "model.no_weight";

// expect.*
// an --expect file that is not a JSON object of module -> dtype
inline constexpr const char kExpectParse[] = "expect.parse";

// printed.*
// a printed model with no module lines
inline constexpr const char kPrintedEmpty[] = "printed.empty";
// a printed model nested past the reader's limit
inline constexpr const char kPrintedTooDeep[] = "printed.too_deep";
// (warning) a printed model cut inside a module
inline constexpr const char kPrintedTruncated[] = "printed.truncated";
// (warning) lines of a printed model that are no module
inline constexpr const char kPrintedIgnoredLines[] = "printed.ignored_lines";
// (warning) a printed model without quantized layers
inline constexpr const char kPrintedNoLayers[] = "printed.no_layers";

// artifact.*
// an empty toolchain file
inline constexpr const char kArtifactEmpty[] = "artifact.empty";
// a toolchain file that is binary
inline constexpr const char kArtifactBinary[] = "artifact.binary";
// no table of the kind its name says
inline constexpr const char kArtifactNoTable[] = "artifact.no_table";
// a Python-literal dump (qconfig_dtypes.pt.py) or a change-log line in no accepted form
inline constexpr const char kArtifactParse[] = "artifact.parse";

// table.*
// (warning) a table row with the wrong number of cells
inline constexpr const char kTableRaggedRow[] = "table.ragged_row";
// (warning) a table cut before its end
inline constexpr const char kTableTruncated[] = "table.truncated";
// (warning) a row cut by the end of the file
inline constexpr const char kTableRowCut[] = "table.row_cut";
// (warning) a table line past the reader's limit
inline constexpr const char kTableHugeLine[] = "table.huge_line";
// (warning) a header wider than any real table over narrower rows: the unfilled columns dropped
inline constexpr const char kTableWideHeader[] = "table.wide_header";
// (warning) a column the check needs is missing
inline constexpr const char kTableMissingColumn[] = "table.missing_column";
// (warning) a model_check_result section the reader does not know
inline constexpr const char kTableUnknownSection[] = "table.unknown_section";

// thresholds.*
// a thresholds file that is not JSON (the defaults apply, with a warning)
inline constexpr const char kThresholdsParse[] = "thresholds.parse";
// a threshold that is not a number in range
inline constexpr const char kThresholdsValue[] = "thresholds.value";
// a threshold the rules do not have
inline constexpr const char kThresholdsUnknownKey[] = "thresholds.unknown_key";

// faq.*
// no FAQ folder
inline constexpr const char kFaqNoDir[] = "faq.no_dir";
// a FAQ folder without trees
inline constexpr const char kFaqEmpty[] = "faq.empty";
// a FAQ tree that is not JSON
inline constexpr const char kFaqParse[] = "faq.parse";
// a FAQ tree file past its size limit
inline constexpr const char kFaqTooLarge[] = "faq.too_large";
// a FAQ tree nested past the reader's limit
inline constexpr const char kFaqTooDeep[] = "faq.too_deep";
// a FAQ tree that breaks faq/schema.json
inline constexpr const char kFaqSchema[] = "faq.schema";
// past a count limit (topics, nodes, answers)
inline constexpr const char kFaqLimit[] = "faq.limit";
// a text without both languages
inline constexpr const char kFaqMissingText[] = "faq.missing_text";
// categories out of order
inline constexpr const char kFaqBadOrder[] = "faq.bad_order";
// an id used twice
inline constexpr const char kFaqDuplicateId[] = "faq.duplicate_id";
// a reference to a node or topic that does not exist
inline constexpr const char kFaqDangling[] = "faq.dangling";
// a tree that loops
inline constexpr const char kFaqCycle[] = "faq.cycle";
// a node no path reaches
inline constexpr const char kFaqUnreachable[] = "faq.unreachable";
// an automatic answer naming a check that does not exist
inline constexpr const char kFaqUnknownCheck[] = "faq.unknown_check";
// an automatic question without exactly one found and one clear answer
inline constexpr const char kFaqAutoAnswers[] = "faq.auto_answers";
// a result without advice
inline constexpr const char kFaqNoAdvice[] = "faq.no_advice";
// answering at a node that is no question
inline constexpr const char kFaqNotAQuestion[] = "faq.not_a_question";
// an answer id the question does not have
inline constexpr const char kFaqUnknownAnswer[] = "faq.unknown_answer";
// a topic id that does not exist
inline constexpr const char kFaqUnknownTopic[] = "faq.unknown_topic";
// a saved wizard walk that does not replay on this FAQ
inline constexpr const char kFaqSession[] = "faq.session";

// checkpoint.* (errors and warnings; checkpoint findings have ids of the same prefix)
// not a torch.save file (neither its zip archive nor its legacy stream or tar), or a TorchScript archive
inline constexpr const char kCheckpointFormat[] = "checkpoint.format";
// the zip archive or one of its entries cannot be read
inline constexpr const char kCheckpointZip[] = "checkpoint.zip";
// the pickle is malformed, truncated or over a limit (the message gives the byte offset)
inline constexpr const char kCheckpointPickle[] = "checkpoint.pickle";
// the file ends inside a pickle or a storage: cut off (a copy stopped early, a disk full)
inline constexpr const char kCheckpointTruncated[] = "checkpoint.truncated";
// a tensor whose shape, stride or offset does not fit its storage
inline constexpr const char kCheckpointTensor[] = "checkpoint.tensor";
// a tensor of an element type that is not converted (complex)
inline constexpr const char kCheckpointDtype[] = "checkpoint.dtype";
// a checkpoint's quantizers carry no bit width (warning on its layer table)
inline constexpr const char kCheckpointBitWidth[] = "checkpoint.bit_width";
// some weights were not scanned for NaN / Inf (unreadable, or past the scan's budget)
inline constexpr const char kCheckpointScanPartial[] = "checkpoint.scan_partial";
// what a checkpoint claims (pickle values, quantizer buffers, two weights compared at once) would
// pass the memory budget (--max-memory); the message names the piece and the budget
inline constexpr const char kCheckpointBudget[] = "checkpoint.budget";

// simulate.*
// no ONNX model to simulate (or one that was found but refused)
inline constexpr const char kSimulateNoModel[] = "simulate.no_model";
// the model cannot be simulated (a cycle, a missing producer, an unreadable initializer)
inline constexpr const char kSimulateModel[] = "simulate.model";
// an op, type or attribute the simulator does not run
inline constexpr const char kSimulateUnsupported[] = "simulate.unsupported";
// an op's inputs or attributes are inconsistent
inline constexpr const char kSimulateOp[] = "simulate.op";
// a kernel refused its input (budget, overflow, range) or threw; names the node
inline constexpr const char kSimulateKernel[] = "simulate.kernel";
// a tensor that cannot be decoded
inline constexpr const char kSimulateTensor[] = "simulate.tensor";
// quantization parameters that cannot work
inline constexpr const char kSimulateQparams[] = "simulate.qparams";
// a Resize that cannot be computed
inline constexpr const char kSimulateResize[] = "simulate.resize";
// a layer weight that cannot be read
inline constexpr const char kSimulateWeight[] = "simulate.weight";
// an input that does not fit the model (count, shape, type)
inline constexpr const char kSimulateInput[] = "simulate.input";
// a .npy input that does not parse
inline constexpr const char kSimulateNpy[] = "simulate.npy";
// a TensorProto input that does not parse
inline constexpr const char kSimulatePb[] = "simulate.pb";
// a raw input of the wrong size
inline constexpr const char kSimulateRaw[] = "simulate.raw";
// an image that cannot be decoded
inline constexpr const char kSimulateImage[] = "simulate.image";
// a colour comparison the model cannot take (not one [N,3,H,W] input)
inline constexpr const char kSimulateColour[] = "simulate.colour";
// a dataset that cannot be evaluated (labels that do not match, no samples, a bad shard)
inline constexpr const char kSimulateDataset[] = "simulate.dataset";
// partial evaluation results that do not merge (another model or dataset, shards missing)
inline constexpr const char kSimulateMerge[] = "simulate.merge";

// report.*
// a report name whose extension is none of pdf, html, json
inline constexpr const char kReportFormat[] = "report.format";
// PDF asked where no renderer is built in
inline constexpr const char kReportNoPdf[] = "report.no_pdf";
// the PDF renderer needs the GUI libraries
inline constexpr const char kReportNoApp[] = "report.no_app";
// rendering the PDF failed
inline constexpr const char kReportPdf[] = "report.pdf";
// a --wizard file that holds no wizard walk
inline constexpr const char kReportWizard[] = "report.wizard";

// session.*
// a session file that is not JSON
inline constexpr const char kSessionParse[] = "session.parse";
// a session file of another kind
inline constexpr const char kSessionFormat[] = "session.format";
// a session file from a newer version
inline constexpr const char kSessionVersion[] = "session.version";

}  // namespace qatdoctor::core::codes
