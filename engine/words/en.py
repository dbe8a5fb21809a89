"""English words of everything the engine says, by id: a catalogue of ``str.format`` templates.

Each section is one kind of words; :mod:`engine.words` joins them and finds a template by id.
"""

from __future__ import annotations

REFUSALS: dict[str, str] = {
    # Phrases inside a sentence: why a size is expected, what a result holds.
    "no_reason": "",
    "match_d": " to match d={d}",
    "match_d_k": " to match d_k={d_k}",
    "match_encoder_width": " to match the encoder's width {d}",
    "match_wq_width": " to match Wq (queries and keys must have the same width)",
    "key_heads_of": " for {groups} key heads of d_k={d_k}",
    "match_columns_of": " to match {matrix}'s columns",
    "match_value_columns": " to match the {columns} concatenated value columns",
    "match_w1_columns": " to match W1's {columns} columns",
    "shared_gate_column": " (the shared expert's gate gives each token one number)",
    "result_q": "Q",
    "result_v": "V",
    "result_mixed": "the mixed values",
    "result_output": "the attention output",
    "result_hidden": "the hidden layer",
    "result_logits": "the logits",
    "square_positions": "{n}² positions",
    "grid_positions": "{n}×{keys} positions",
    "heads_of": "{heads} heads",
    "kv_heads_of": "{groups} key/value heads",
    "wo_columns": "Wo's columns",
    "value_columns": "the concatenated value columns",
    "encoder_layers_one": "{count} encoder layer",
    "encoder_layers_many": "{count} encoder layers",
    "decoder_layers_one": "{count} decoder layer",
    "decoder_layers_many": "{count} decoder layers",
    "vocabulary_labels": "vocabulary labels",
    "vocabulary_bias": "a vocabulary bias",
    "vocabulary_softcap": "a soft cap of the logits",
    "softcap_alibi": "a soft cap of the scores beside ALiBi's bias is not computed: QKV Studio "
                     "caps the scores of models without ALiBi (Gemma 2)",
    "vocabulary_transform": "a masked-language-model transform",
    "rope_dims_given": "{dims}",
    "either": "{first} or {second}",
    "an_object": "an object",
    "a_list_of": "a list of {count}",
    "huge_whole": "a whole number of about {digits} digits",
    "rope_dims_default": "{dims} (by default the d_k of {path})",
    # Reading JSON values (engine.format.reader).
    "not_object": "expected an object, got {got}",
    "unknown_key": "unknown key (allowed here: {allowed})",
    "large_result": "{what} would be {rows}×{cols} = {cells} numbers, more than the limit of "
                    "{limit}",
    "not_bool": "expected true or false, got {got}",
    "not_text": "expected text, got {got}",
    "text_too_long": "text of {length} characters is longer than {limit}",
    "unprintable": "character {index} is \\u{code:04x}, which is not printable text (no picture "
                   "or slide can hold it)",
    "lone_surrogate": "character {index} is {code}, a lone half of a UTF-16 surrogate pair, not "
                      "a character",
    "not_choice": "expected one of {options}, got {got}",
    "not_whole": "expected a whole number, got {got}",
    "whole_out_of_range": "expected a whole number from {low} to {high}, got {got}",
    "whole_too_long": "expected a whole number of at most {most} digits, got one of {digits}",
    "not_number": "expected a number, got {got}",
    "number_too_large": "{got} is too large: every number must be finite",
    "not_finite": "{got} is not allowed: every number must be finite",
    "labels_list": "expected a list of {count} labels, got {got}",
    "labels_count": "expected {count} labels, got {got}",
    "array_dtype": "expected numbers, got an array of {dtype}",
    "row_dimensions": "expected a row of numbers, got {ndim} dimensions",
    "not_row": "expected a row of numbers, got {got}",
    "numbers_limit": "{count} numbers is more than the limit of {limit}",
    "numbers_count": "expected {count} numbers{reason}, got {got}",
    "matrix_dimensions": "expected a matrix, got {ndim} dimensions",
    "not_matrix": "expected a matrix (a list of rows), got {got}",
    "no_rows": "expected at least one row, got none",
    "not_matrix_row": "expected a row (a list of numbers), got {got}",
    "rows_limit": "{count} rows is more than the limit of {limit}",
    "columns_limit": "{count} columns is more than the limit of {limit}",
    "cells_limit": "{rows}×{cols} cells is more than the limit of {limit}",
    "rows_count": "expected {count} rows{reason}, got {got}",
    "no_columns": "expected at least one column, got none",
    "ragged_row": "expected {count} numbers like row 0, got {got}",
    "columns_count": "expected {count} columns{reason}, got {got}",
    # Reading a file (engine.format.io).
    "is_folder": "is a folder, not a scenario document",
    "folder_weights": "is a folder, where the checkpoint needs a weights file (safetensors)",
    "folder_checkpoint_file": "is a folder, where the checkpoint needs a file",
    "not_regular_file": "is not a regular file (a device, a pipe or a socket): nothing was read "
                        "from it",
    "file_too_large": "the file is {size}; scenario documents are limited to {limit}",
    "unreadable": "cannot be read ({reason})",
    "wide_encoding": "is {encoding} text; scenario documents are UTF-8 (save it as UTF-8)",
    "binary_file": "is a binary file, not a scenario document (JSON text)",
    "not_utf8": "is not UTF-8 text (byte {byte})",
    "duplicate_key": 'the key "{key}" appears twice in one object; keep one',
    "invalid_json": "invalid JSON at line {line}, column {column}: {reason}",
    "nested_too_deeply": "is nested too deeply to be a scenario document",
    "too_many_digits": "holds a number with too many digits to be read",
    # The document as a whole (engine.format.document, engine.scenario.scenario).
    "wrong_format": 'expected "{format}", got {got}',
    "newer_version": "this document is version {version}, made by a newer QKV Studio; this one "
                     "reads up to version {limit}",
    "x_and_token_ids": "give either X or token_ids with embedding, not both",
    "attention_and_layers": "give either attention (and block) or layers, not both",
    "token_ids_need_embedding": "token_ids need an embedding table to look up",
    "token_ids_list": "expected a list of token ids",
    "positions_limit": "{count} positions is more than the limit of {limit}",
    "x_missing": "missing: give the input rows X (or token_ids and embedding)",
    "stacks_layers_limit": "{encoder} and {decoder} are {count} layers, more than the limit of "
                           "{limit} for both stacks together",
    "encoder_layers_missing": "missing: an encoder needs at least one layer",
    "trace_numbers_limit": "the trace would hold {count:,} numbers, more than the limit of "
                           "{limit:,}: use fewer layers or positions",
    "resize_memory": "the new sizes would hold at least {count:,} numbers of the weights they "
                     "change as float64, {need} GiB or more, more than this computer's {have} "
                     "GiB of memory: choose smaller sizes",
    "document_memory": "its {count:,} numbers and its trace's {trace:,} need about {need} GiB "
                       "of float64, more than this computer's {have} GiB of memory",
    "overflow": "a value overflowed or was divided by zero ({error}); look for huge numbers, or "
                "ε = 0 with a constant row",
    "no_block_to_compare": "“{kind}” compares decoder-block settings, and this document has no "
                           "block",
    # Layers, attention, blocks and heads (engine.format.layers).
    "missing": "missing",
    "encoder_causal": "an encoder layer reads every source token, so it cannot be causal: remove "
                      "the key or set it to false",
    "scores_limit": "{heads} heads × {positions} is more than the limit of {limit} scores",
    "kv_heads_divide": "{groups} key/value heads do not divide the {heads} query heads",
    "heads_split": "{columns} columns do not split into {heads}",
    "bias_needs_wo": "an output bias needs Wo",
    "no_pre_norms_sequential": "only a pre-norm block of sequential residuals without "
                               "cross-attention may leave out its pre-norms",
    "pre_norm_without_pre_norms": "a block without pre-norms has no γ1, β1, γ2 or β2",
    "qk_span_needs_norm": "what a QK-norm spans needs qk_norm",
    "qk_scale_needs_norm": "a QK-norm scale needs qk_norm",
    "qk_shift_needs_layernorm": "a QK-norm shift needs qk_norm \"layernorm\" (RMSNorm has no "
                                "shift)",
    "scale_not_positive": "expected a number above 0, got {got}",
    "scale_needs_token_ids": "scales the rows token_ids look up; this document gives its rows "
                             "as X (scale those numbers instead)",
    "types_need_table": "token types need a type_table (the T × d rows they pick)",
    "types_list": "expected a list of {count} type ids (one per position), got {got}",
    "types_count": "expected {count} type ids (one per position), got {got}",
    "ablate_heads_list": "expected a list of head indexes 0 … {high}, got {got}",
    "ablate_heads_twice": "head {head} is already listed: give each head once",
    "key_mask_list": "expected a list of {count} numbers 1 or 0, got {got}",
    "key_mask_count": "expected {count} numbers (one per key), got {got}",
    "key_mask_item": "expected 1 (seen) or 0 (hidden), got {got}",
    "mask_hides_all": "hides every key from query {query}: a query must see at least one key",
    "gate_bias_needs_gate": "a gate bias needs the gate Wg",
    "experts_list": "expected a list of {count} feed-forwards (one per router column), got {got}",
    "block_width": "the block adds the attention output to X, so {source} must be d={d}, got "
                   "{got}",
    "parallel_needs_pre": 'a parallel residual is pre-norm: it needs placement "pre"',
    "parallel_no_cross": 'a parallel residual has no place for cross-attention: use "sequential"',
    "cross_norm_only": "only a layer with cross_attention has this norm",
    "ffn_missing": "missing: a block needs its feed-forward network",
    "eps_negative": "ε must not be negative, got {eps}",
    "needs_unembed": "{what} need the head {head}",
    "tied_unembed_text": 'expected a matrix, or "{tied}" for the embedding\'s transpose (a tied '
                         "head), got {got}",
    "tied_unembed_table": '"{tied}" reads the embedding, and this document has none',
    "attention_missing": "missing: give at least Wq, Wk and Wv",
    "encoder_cross": "an encoder layer cannot have cross-attention: only a decoder layer reads "
                     "the encoder's output",
    "cross_no_encoder": "cross-attention reads an encoder's output, and this document has no "
                        "encoder",
    "cross_needs_block": "cross-attention needs the layer's block (its norm and residual)",
    "cross_width": "the block adds the cross-attention output to the stream, so it must be d={d} "
                   "wide, got {got}",
    "layer_width": "the layer hands its output on to a stream of width d={d}, got {got}",
    "layers_list": "expected a list of layers, got {got}",
    "no_layers": "expected at least one layer, got none",
    "layers_limit": "{count} layers is more than the limit of {limit}",
    # Positional encodings (engine.forward.positions).
    "base_not_positive": "expected a number above 0, got {got}",
    "rope_dims_odd": "expected an even number (columns turn in pairs), got {dims}",
    "qk_norm_per_head": "a LayerNorm of its own for each head's queries and keys is not "
                        "computed yet: QKV Studio norms every head with one γ and β",
    "longrope_pairs": ", one per turned pair of columns (r/2 = {pairs})",
    "longrope_factors": "expected {count} factors, one per turned pair of columns (r/2), got "
                        "{got}",
    "dynamic_short_context": "dynamic RoPE raises its base past {context} positions, within the "
                             "{limit} QKV Studio computes: not computed yet",
    "longrope_short_context": "longrope turns by its long factors past {original} positions, "
                              "within the 512 QKV Studio computes: not computed yet",
    "rope_yarn_turns": "yarn takes ln({original} / (2π·β)), not a finite number for β = {got}",
    "rope_yarn_base": "yarn divides by ln base, which is 0 for base 1",
    "rope_llama3_equal": "low_freq_factor and high_freq_factor are both {low}: llama3 divides "
                         "by their difference",
    "alibi_slopes_count": "expected one slope per head (1 to {limit}), got {got}",
    "key_of_other_kind": "belongs to kind {owners}, not {kind}",
    "unknown_kind_key": "unknown key (allowed for kind {kind}: {allowed})",
    "learned_table_missing": "missing: a learned table needs one row per position",
    "learned_table_rows": "expected at least {count} rows for n = {n} from offset {offset}, got "
                          "{got}",
    "odd_d_k": "{path} has an odd d_k = {d_k}: give an even rotary_dims (columns turn in pairs)",
    "rope_dims_too_many": "{dims} is more than d_k = {d_k} of {path}",
    "alibi_slopes_heads": "expected {heads} numbers to match the {heads} heads of {path}, got "
                          "{got}",
    # Generating, training targets and the KV cache (engine.generation.append,
    # engine.format.generation_keys, engine.generation.run, engine.generation.kv_cache).
    "generate_needs_tokens": "generating needs token_ids and an embedding table to look the new "
                             "token up in",
    "generate_needs_head": "generating needs a vocabulary head (head.unembed and head.vocab) to "
                           "give the next token's probabilities",
    "generate_masked_lm": "a masked-language-model head (head.transform) fills [MASK] positions "
                          "from both sides: it does not continue the text, so it does not "
                          "generate",
    "generate_encoder": "an encoder reads both directions (no causal mask) and has no "
                        "vocabulary head: it does not predict the next token, so it does not "
                        "generate",
    "generate_embedding_short": "{rows} rows for a vocabulary of {vocab} entries: each entry "
                                "the head can draw needs its row",
    "generate_with_targets": "a document with training targets has one per position: remove "
                             "them before generating",
    "generate_positions_limit": "{n} positions already: one more is past the limit of {limit}",
    "generate_past_context": "the model was made for {context} positions (its checkpoint's "
                             "max_position_embeddings), and {n} are already taken: position "
                             "{n} would be past its context",
    "generate_past_table": "the learned table has {rows} rows; position {n} would need row "
                           "{row}, past its end",
    "token_not_in_vocabulary": "id {token_id} is not a vocabulary entry with a row of the "
                               "embedding (ids 0 to {last})",
    "steps_fit": "{steps} tokens asked, {fit} fit: {place}: {problem}",
    "whole_from_one": "expected a whole number from 1, got {got}",
    "temperature_range": "expected a number from 0 (greedy) to {limit:g}, got {got}",
    "top_p_range": "expected a number above 0 and at most 1, got {got}",
    "lens_needs_head": "the logit lens reads each layer through a vocabulary head (head.unembed "
                       "and head.vocab): this document has none",
    "loss_needs_head": "a loss needs a vocabulary head (head.unembed and head.vocab) to give "
                       "each position its probabilities",
    "targets_list": "expected a list of {count} ids, got {got}",
    "targets_count": "expected {count} ids, one per position, got {got}",
    "run_with_targets": "a document with training targets holds no generation run: remove one "
                        "of them",
    "run_needs_vocabulary": "a generation run needs token_ids with an embedding and a vocabulary "
                            "head (head.unembed and head.vocab)",
    "chosen_list": "expected a list of ids, got {got}",
    "chosen_no_prompt": "{count} chosen ids leave no prompt in the {total} token ids: a run "
                        "appends to at least one token",
    "chosen_not_last": "expected the last {count} token ids {expected}, the ids the run "
                       "appended, got {got}",
    "cache_needs_causal": "a KV cache needs causal self-attention: without the mask every "
                          "earlier row reads the new token",
    "softcap_overflow": "the soft cap {cap} is too small for the numbers it caps: {x} / {cap} "
                        "overflows, so c·tanh(x / c) cannot be computed",
    "step_overflow": "a value overflowed or was divided by zero ({error})",
    # Opening a Hugging Face checkpoint (engine.checkpoint).
    "checkpoint_not_folder": "is not a folder: give the folder of a Hugging Face checkpoint "
                             "(config.json, *.safetensors, tokenizer.json)",
    "checkpoint_file_missing": "missing: a Hugging Face checkpoint folder holds config.json, its "
                               "weights in *.safetensors and tokenizer.json",
    "config_not_json": "is not a model's config (a JSON object)",
    "weights_too_short": "is {size} bytes, shorter than a safetensors file's 8-byte header "
                         "length",
    "weights_header_length": "is not safetensors weights: its header is said to be {length:,} "
                             "bytes, and the file is {size:,}",
    "weights_header_not_json": "is not safetensors weights: its header is not a JSON object of "
                               "tensors",
    "weights_header_twice": "is not safetensors weights: its header names \"{key}\" twice",
    "tensor_entry": "the header's entry for the tensor {name} is not an object of dtype, shape "
                    "and data_offsets",
    "tensor_dtype": "the tensor {name} is stored as {dtype}; the importer reads {read}",
    "tensor_dimensions": "the tensor {name} has the shape {shape}: at most {most} sizes, each a "
                         "whole number from 0 below 2⁶⁴",
    "tensor_offsets": "the tensor {name} lies at data_offsets {offsets}, which do not hold its "
                      "{count:,} numbers of {width} bytes within the file's {room:,} bytes of "
                      "data",
    "weights_header": "{problem}",
    "header_long": "has a header of {size:,} bytes, more than the {limit:,} read here",
    "tensor_overlap": "the tensors {name} and {other} share bytes of the file",
    "tensor_twice": "the tensor {name} is in both {first} and {second}: a folder holds each "
                    "tensor once (or model.safetensors.index.json names its file)",
    "index_not_json": "is not a safetensors index (a JSON object whose weight_map gives each "
                      "tensor's file)",
    "index_file_outside": "names the file {file}, which is not a file of this folder",
    "index_tensor_missing": "gives {file} for the tensor {name}, and that file does not hold it",
    "tensors_unused": "the {family} layout reads none of {count} of the tensors ({names}): "
                      "the model is not a plain {family}, and without them its numbers would "
                      "not be transformers'",
    "checkpoint_limit": "{got:,} is more than the limit of {limit:,} QKV Studio computes "
                        "(nothing was read)",
    "tensor_numbers_limit": "the tensor {name} holds {count:,} numbers, more than the limit of "
                            "{limit:,} for one weight (nothing was read)",
    "checkpoint_memory": "the weights as float64 need about {need} GiB, more than this "
                         "computer's {have} GiB of memory (nothing was read)",
    "tensor_missing": "no weights file holds the tensor {name}",
    "checkpoint_gone": "is gone: the document's weights stay in this checkpoint file, which was "
                       "moved or deleted after it was opened; put it back or open the "
                       "checkpoint again",
    "checkpoint_changed_since_saved": "changed after the document was saved (its size or "
                                      "header differs): the weights read from it would not "
                                      "be the ones saved; open the checkpoint again, or open "
                                      "a self-contained copy",
    "checkpoint_modified_since_saved": "was modified after the document was saved: its size "
                                       "and header are the ones saved, its modification time "
                                       "is not. Copying or restoring the same file does that, "
                                       "and so does a fine-tune saved over it; the document "
                                       "cannot tell which. If it is the same checkpoint, "
                                       "open the document with it anyway",
    "checkpoint_gone_command_line": "is gone: the document's weights stay in this checkpoint "
                                    "file, which was moved or deleted after the document was "
                                    "saved; put it back, or give --checkpoint-folder DIR, the "
                                    "folder its files are in now",
    "checkpoint_modified_command_line": "was modified after the document was saved: its size "
                                        "and header are the ones saved, its modification time "
                                        "is not. Copying or restoring the same file does that, "
                                        "and so does a fine-tune saved over it; the document "
                                        "cannot tell which. If it is the same checkpoint, give "
                                        "--checkpoint-as-is",
    "checkpoint_folder_missing": "there is no folder {folder}: give the folder the checkpoint's "
                                 "files are in now",
    "checkpoint_relative": "expected the absolute path of a checkpoint's weights file, got "
                           "{got}",
    "overlay_cells": "expected the edited cells as rows of a flat index and its number, the "
                     "indices whole numbers below {size:,}, each larger than the one before",
    "checkpoint_changed": "changed after the document was opened (its size or modification "
                          "time differs): the weights read from it would no longer be the "
                          "document's; open the checkpoint again",
    "tensor_unreadable": "cannot read the tensor {name} ({reason})",
    "tensor_not_finite": "the tensor {name}[{cell}] is {got}: every number must be finite",
    "tensor_shape": "the tensor {name} is {got}, and config.json makes it {expected}",
    "tokenizer_unreadable": "cannot be read as a tokenizer ({reason})",
    "family_unknown": "{family} is not a family QKV Studio imports: it imports {families}",
    "config_gives": "gives the document's {key}, which is refused: {problem}",
    "config_float_whole": "expected a number written with a decimal point (as 1.0), got {got}: "
                          "transformers' config refuses a whole number here",
    "config_whole_float": "expected a whole number written without a fraction part, got {got}: "
                          "transformers' config refuses a number with a decimal point here",
    "quantized": "the weights are quantized ({method}): QKV Studio reads plain float32, float16 "
                 "and bfloat16 weights only, and transformers would compute with quantized ones",
    "rope_scaled": "RoPE scaling {kind} is not computed yet: QKV Studio computes the linear, "
                   "llama3, yarn and dynamic scalings of Llama-shaped families only",
    "layer_scaled_scores": "scores divided by the layer number too are not computed yet: QKV "
                           "Studio divides by √d_k only",
    "rope_per_layer": "RoPE settings per layer type are not computed yet: QKV Studio turns "
                      "every layer by one base",
    "window_of_nothing": "marks a layer sliding_attention while use_sliding_window is false: "
                         "transformers then slides a window of 0 keys, which hides every key",
    "layer_types": "expected a list of {layers} entries, each \"full_attention\" or "
                   "\"sliding_attention\", got {got}",
    "softcapping": "capping scores or logits by tanh is Gemma 2's (model_type gemma2): "
                   "transformers' Gemma does not read this key, so a Gemma config giving it is "
                   "refused",
    "bidirectional": "attention without the causal mask is not computed yet for this family",
    "head_dim_split": "the attention's heads are hidden_size / num_attention_heads = {d_k} "
                      "columns wide, and transformers' rotary embedding would turn {got}: they "
                      "do not fit",
    "added_token_moved": "declares id {wanted} for {token}, an id the vocabulary already gives "
                         "{taken}: the tokenizer (transformers' too) gives it id {got} instead, "
                         "past the {rows} rows of the model's embedding",
    "tokenizer_vocabulary": "the tokenizer has {count} entries (ids 0 to {last}), more than the "
                            "{rows} rows of the model's embedding: it belongs to another model",
    "text_no_tokens": "the text gives no tokens: type at least one word",
    "pair_needs_types": "a second text is read as segment B by a model with token types "
                        "(BERT); {family} has none: put it in the text",
    "text_past_context": "the text is {count} tokens, more than the model's context of {limit} "
                         "positions",
    "text_past_positions": "the text is {count} tokens, more than the {limit} positions QKV "
                           "Studio computes: shorten it",
    "text_not_utf8": "is not UTF-8 text (character {at} is the undecodable {code}): give the "
                     "text in UTF-8",
    "tokenizer_failed": "the tokenizer failed on the text ({reason})",
    "layers_choice": "expected layers such as 1-2, 3 or 1,3-4, from 1 to {count}, got \"{got}\"",
    # A document's sidecar of arrays too large for JSON (engine.format.sidecar).
    "sidecar_name": "expected the name of a .safetensors file beside the document (no folder, "
                    "no path), got {got}",
    "sidecar_missing": "{file} is missing: the document keeps this array there, beside it",
    "sidecar_unreadable": "{file} cannot be read as safetensors ({reason})",
    "sidecar_key_missing": "{file} holds no array {key}",
    "sidecar_dtype": "the array {key} of {file} is stored as {dtype}; a document's arrays are "
                     "F64, F32, F16 or BF16",
    "sidecar_dimensions": "the array {key} of {file} has {ndim} dimensions; a document's arrays "
                          "have 1 or 2",
    "sidecar_mismatch": "{problem} (the array {key} of {file})",
    "sidecar_file": "{file} {problem}",
    "sidecar_tensor_large": "the tensor {key} holds {count} numbers, more than the limit of "
                            "{limit} for one array",
    "sidecar_total_large": "its tensors hold {count:,} numbers, about {need} GiB as float64, "
                           "more than this computer's {have} GiB of memory",
    "sidecar_layout": "the tensor {key} starts at byte {start} of the data, not at {expected} "
                      "where the one before it ends",
    "sidecar_trailing": "its tensors end at byte {end} of its {size} bytes of data",
    "sidecar_changed": "{file} changed since the document was saved (its sha256 is not the one "
                       "the document records): it is not the sidecar this document was saved "
                       "with",
    "sidecar_digest": "expected the sha256 of the sidecar (64 lowercase hexadecimal digits), "
                      "got {got}",
    # Every output of a run (engine.files.outputs, engine.format.io).
    "output_is_input": "this run reads that file (the document, its sidecar or a checkpoint's "
                       "files); writing there would replace it: choose another name",
    "output_is_checkpoint": "that is a file of the checkpoint this document reads its "
                            "weights from ({folder}); writing there would replace it: choose "
                            "another name",
    "output_twice": "another output of this run ({first}) writes that file too; each output "
                    "needs its own",
    "part_over_a_file": "the step is split over {count} files in place of {asked} ({parts}), "
                        "and a file of this name is already there that the export was not "
                        "asked to replace: move it or choose another name",
    "owner_unknown": "its header names none: an older sidecar, or another program's file",
    "sidecar_owned": "{file} beside it belongs to another document ({owner}); saving here would "
                     "replace that document's weights: choose another name",
    # An option given twice on the command line (app.given_once).
    "option_twice": "{option} was given twice ({first}, then {then}); give it once",
    "flag_twice": "{option} was given twice; give it once",
    # Edits of a document in the app (app.model): swapping tokens, adding and moving layers.
    "swap_same": "choose two different positions, got {i} twice",
    "swap_outside": "positions {i} and {j}: a scenario of {n} positions has 0 to {last}",
    "no_such_stack": "the document has no such stack",
    "no_such_layer": "there is no layer {layer} in a stack of {count}",
    "new_layer_range": "a new layer goes at 1 to {last}, not {layer}",
    "last_layer_kept": "a stack keeps at least one layer",
    "layer_already_first": "layer {layer} is already the first",
    "layer_already_last": "layer {layer} is already the last",
    # A document's exercises (engine.exercises).
    "exercise_list": "expected a list, got {got}",
    "exercise_list_long": "{count} items, more than the limit of {limit}",
    "exercise_list_empty": "expected at least one item",
    "exercise_key_missing": "missing: every exercise of this kind needs it",
    "exercise_language_missing": "missing: an exercise's text is given in English (en) and "
                                 "Chinese (zh)",
    "exercise_text_empty": "empty: write a text",
    "exercise_tolerance": "expected a tolerance of 0 or more, got {got}",
    "exercise_index": "expected a cell as a list of 1 to 3 whole numbers, got {got}",
    "exercise_cells_and_rows": "hide either cells or rows of one array, not both",
    "exercise_edit_zero": "an edit by 0 changes nothing: grow the cell by another number",
    "exercise_no_step": "no step {step} in this document (its steps: {steps})",
    "exercise_not_made": "neither step {step} nor a step before it makes {array} (they make: "
                         "{made})",
    "exercise_index_rank": "{array} needs {rank} indices, got {count}",
    "exercise_outside": "{cell} is outside the {shape} array {array}",
    "exercise_row_outside": "row {row} is outside {array}, which has {rows} rows",
    "exercise_answer_cell": "expected a blank named as its array and full index, such as "
                            "Q[1,0] or weights[0,1,0], got {got}",
    "exercise_answer_place": "this kind of exercise is answered at {places} only",
    "exercise_answer_unknown": "{cell} is not a blank of this exercise (its blanks: {blanks})",
    "exercise_wording_largest": "{{largest:…}} names the key a row of shares or scores gives "
                                "the most; {array} is neither",
    "exercise_wording_array": "{{value:…}} names no trace array or document path {array}",
    "exercise_not_editable": "no editable array {array} in this document (editable: {paths})",
    "exercise_not_attention": "no attention {attention} in this document (its attentions: "
                              "{paths})",
    "exercise_head_outside": "head {head} is not one of {attention}'s heads (0 … {high})",
    "exercise_head_ablated": "{attention} already ablates head {head} (its ablate_heads): "
                             "switching it off again changes nothing",
    "variants_not_found": "variant {number}: no draw of {tries} kept the asked rows' visible "
                          "scores between {low} and {high} apart; use a document with fewer "
                          "positions, or ask about fewer rows",
    "variants_lesson_lost": "variant {number}: of {tries} draws, none whose shares differ "
                            "keeps what {exercise} teaches on the document's own numbers (the "
                            "same edits leaving the shares, the same numbers staying, the "
                            "same way without an ablated head, every change visible at the "
                            "printed decimals); leave it out with "
                            "--exercise",
    "variants_count": "expected a number of variants from 1 to {most}, got {got}",
    "rope_base_needs_rope": "a layer's own RoPE base needs the stack's positions to be RoPE "
                            "(\"kind\": \"rope\")",
    "rope_base_scaled": "a layer's own RoPE base beside a RoPE scaling is computed only for "
                        "a layer that leaves the scaling out (\"rope_scaled\": false)",
    "rope_unscaled_needs_scaling": "rope_scaled false leaves out the stack's RoPE scaling; "
                                   "these positions have no scaling to leave out",
    "softcapping_unread": "transformers' Gemma 3 never passes this cap to its attention, so "
                          "its scores are not capped; a config giving it is refused",
    "rope_scaled_full": "RoPE scaling {kind} of the full-attention layers is not computed "
                        "yet: QKV Studio computes the linear one there",
    "rope_scaled_sliding": "RoPE scaling {kind} of the sliding layers is not computed yet: "
                           "QKV Studio scales the full-attention layers alone",
    "rope_layer_types": "expected RoPE settings per layer type: full_attention and "
                        "sliding_attention",
    "scale_dk_needs_scale": "scale_dk is the number under the square root the scores are "
                            "divided by; with scale false they are divided by nothing",
    "output_norm_sequential": "a norm of a sub-layer's output needs a pre-norm block with "
                              "sequential residuals and no cross-attention",
    "layers_form": "expected layers A-B or one layer N, counted from 1, got {got}",
    "layers_range": "this document has layers 1 to {count}, got {got}",
}

PHRASES: dict[str, str] = {
    # The words around per-cell arithmetic (engine.arithmetic.cells); formulas themselves are
    # symbols.
    "embedding_row": "token “{token}” has id {tid}, so row {i} of X is row {tid} of the table",
    "typed_input": "typed input for “{token}”, feature {j}",
    "head_column": "column {c} belongs to head {head} of {heads}",
    "query_key": "query “{query}” against key “{key}”, head {head}",
    "mask_will_hide": "the causal mask hides key {j} from query {i}: its share will be 0",
    "masked_keys": "masked keys (after position {i}): {keys}",
    "masked_keys_any": "keys hidden from query {i}: {keys}",
    "mask_will_hide_any": "the mask hides key {j} from query {i}: its share will be 0",
    "hidden_share": "= 0 exactly: key {j} (“{token}”) is hidden from query {i} by the mask",
    "none_masked": "no key is masked in this row",
    "masked_share": "= 0 exactly: key {j} (“{token}”) comes after query {i} and is masked",
    "row_max": "s = {scores}[{h},{i},·], max over the visible keys = {top}",
    "one_key": "only one key is visible, so its share is 1 for lack of competition",
    "mix_note": "masked keys add nothing; column {c} is head {head}'s value column {local}",
    "no_wo": "no Wo: the output is the concatenated heads",
    "norm_off": "norm is off",
    "rms_stats": "x = {source}[{i},·]; mean(x²) = {ms}; ε = {eps}; γ[{j}] = {gamma}",
    "layer_stats": "x = {source}[{i},·]; row mean μ = {mean}; population variance σ² = {var}; "
                   "ε = {eps}; γ[{j}] = {gamma}; β[{j}] = {beta}",
    "relu": "ReLU keeps positive z and zeroes the rest",
    "gelu": "GELU(z) = z·Φ(z), Φ the normal distribution function (erf form)",
    "gelu_tanh": "GELU, tanh form: 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
    "silu": "SiLU(z) = z·σ(z)",
    "identity": "identity: no activation",
    "zeroed": " — this unit was zeroed",
    "router_max": "r = {logits}[{i},·], max over the experts = {top}",
    "expert_chosen": "one of the row's {k} largest shares: this expert is chosen",
    "expert_not_chosen": "not among the row's {k} largest shares: this expert does not run "
                         "for this token",
    "expert_rank": "choice {rank} of {k}, by share, largest first (equal shares in "
                   "torch.topk's order)",
    "expert_unnormalised": "normalize is false: the weight is the share itself",
    "expert_renormalised": "the {k} chosen shares divided by their sum: the weights sum to 1",
    "expert_output": "choice {rank} of this token: expert {e}'s feed-forward of its row",
    "experts_sum": "each chosen expert's output times its router weight, summed",
    "shared_output": "the shared expert's feed-forward of this token's row: it runs for every "
                     "token, chosen or not",
    "shared_gate": "σ(z) = 1 / (1 + exp(−z)): the shared expert's gate, a share from 0 to 1 "
                   "of its output this token keeps",
    "experts_shared_sum": "plus the shared expert's output times its gate g = {g}",
    "vocab_entry": "vocabulary entry “{entry}”",
    "soft_capped": "the soft cap c = {cap} keeps every value between −{cap} and {cap}; "
                   "small values pass almost unchanged",
    "prob_row": "l = logits[{i},·], max = {top}; entry “{entry}” for position “{token}”",
    "loss_row": "position {i} (“{token}”) should predict id {target} (“{entry}”): the "
                "smaller its probability, the larger the loss",
    "loss_mean": "the mean over all {n} positions, computed at once in training",
    "draw_logit": "the logit of entry “{entry}” at the last position {i} (“{token}”), "
                  "the only row the next token is drawn from",
    "draw_tempered": "each logit divided by the temperature T = {t} (max = {top}) before "
                     "the softmax: T below 1 sharpens, above 1 flattens; entry “{entry}”",
    "draw_greedy": "temperature 0 is greedy: all the mass on the largest logit (“{entry}” "
                   "gets 1 if it is that one, else 0)",
    "draw_kept": "kept entry {rank} of {kept}, most probable first, after top-k and top-p: "
                 "“{entry}”, tempered probability {p}",
    "draw_cut": "“{entry}” was cut by top-k or top-p: it cannot be drawn",
    "draw_share": "“{entry}”'s tempered probability divided by the mass of the {kept} kept "
                  "entries: the kept shares sum to 1",
    "draw_chosen": "“{entry}”: the first kept entry whose running share passes one uniform "
                   "number of draw t = {t} with seed {seed}",
    "terms": "… ({count} terms)",
    "learned_row": "learned table: position {p} reads row offset + p = {offset} + {p} = {row}",
    "sinusoidal_column": "column {c} is pair i = {i}: even columns take the sine, odd the "
                         "cosine ({fn} here), of position {p}",
    "plus_position": "the row of “{token}” plus the row of position {p}",
    "plus_type": "the row of “{token}” plus the row of its type {t}",
    "plus_position_type": "the row of “{token}” plus the row of position {p} and the row of "
                          "its type {t}",
    "scaled_row": "token “{token}” has id {tid}: row {tid} of the table times "
                  "embedding_scale = {scale}",
    "type_row": "“{token}” at position {p} has type {t} (token_types[{p}]): row {t} of "
                "type_table",
    "sinusoidal_halves": "column {c} is pair i = {i}: the first {sines} columns take the "
                         "sine, the rest the cosine ({fn} here), of position {p}",
    "alibi_default_mixed": "the paper's default for h = {h}, not a power of two: the slopes "
                           "of {m} heads 2^(−8k/{m}), then every other slope of {m2} heads",
    "rope_angle_cell": "position {p} times the frequency of pair {i}; later pairs turn "
                       "more slowly (r = {r})",
    "rope_kept": "column {local} of head {head} is past rotary_dims = {r}: not turned",
    "head_ablated": "head {head} is ablated (ablate_heads lists {index}): its output is set "
                    "to 0",
    "rope_pair": "pair {i}: columns {first} and {second} turn together in their plane "
                 "(head {head}, {pairing})",
    "pairing_half": "half pairing: i with i + r/2",
    "pairing_interleaved": "interleaved pairing: 2i with 2i + 1",
    "rope_turn": "angle p·{theta} = {angle} rad at position {p}; cos = {cos}, sin = {sin}",
    "rope_turn_factor": "{kind}: cos and sin times the attention factor a = {factor}",
    "rope_linear": "linear scaling: every frequency divided by the factor {factor} "
                   "(m = 1/{factor})",
    "rope_llama3_short": "llama3: wavelength 2π/θ = {wavelength} is below {short} "
                         "(= {original}/{high}): frequency kept (m = 1)",
    "rope_llama3_long": "llama3: wavelength 2π/θ = {wavelength} is above {long} "
                        "(= {original}/{low}): frequency divided by {factor} (m = 1/{factor})",
    "rope_llama3_smoothed": "llama3: wavelength 2π/θ = {wavelength} is between {short} and "
                            "{long}: smoothed, s = ({original}/{wavelength} − {low})/({high} "
                            "− {low}) = {s}, m = (1 − s)/{factor} + s = {m}",
    "rope_yarn": "yarn: pair {i} on the ramp from pair {start} to pair {end}: ramp = {ramp}, "
                 "m = ramp/{factor} + 1 − ramp = {m}",
    "rope_longrope": "longrope: pair {i}'s frequency divided by its short factor {short} "
                     "(m = {m})",
    "alibi_default": "the default 2^(−8k/h) with k = {k}, h = {h}",
    "alibi_given": "given in the document",
    "alibi_slope": "head {head}'s slope is {slope} ({source}); farther keys lose more",
    "alibi_added": "the scaled q·k plus the distance bias of query {i} and key {j}",
}

WRITING: dict[str, str] = {
    # Why a file could not be written (engine.files.safe_write), and the line naming it.
    "cannot_write": "cannot write {path}: {reason}",
    "write_disk_full": "the disk is full",
    "write_quota": "the disk quota is used up",
    "write_permission": "permission denied",
    "write_read_only": "the disk is read-only",
    "write_file_in_path": "part of the folder path is a file, not a folder",
    "write_no_folder": "the folder does not exist",
    "write_folder_named": "a folder has that name",
    "write_name_too_long": "the name is too long",
    "write_io_error": "the disk reported an input/output error",
    "write_link_loop": "it is a loop of symbolic links",
    "write_too_large": "the file is too large for this disk",
}

TITLES: dict[str, str] = {
    # A step's title, by its explain_key; the pieces a title adds or names after them. The
    # engine records the English one (Step.title); the app words every language from here.
    "title.input.embed": "Token ids look up rows of the embedding table{scaled}",
    "title.embed_scaled": ", times {scale}",
    "title.positions.added": "Positions: each position's row added to the token rows",
    "title.input.types": "Token types: each token's row of the type table added",
    "title.input.summed": "Embeddings summed: token rows + position rows + type rows",
    "title.input.embedding_norm": "Embedding norm ({norm}): its output is X",
    "title.positions.rope": "RoPE: each pair of q and k turned by p·θ{own}{unscaled}",
    "title.rope_own_base": ", θ from this layer's base {base}",
    "title.rope_unscaled": ", without the stack's scaling",
    "title.attention.inputs": "One input, three parameter paths",
    "title.attention.projections": "Q, K and V: one projection row per position",
    "title.cross_attention.projections": "Q from the decoder rows, K and V from the encoder's "
                                         "memory",
    "title.attention.qk_norm": "QK-norm ({norm}) of each head's queries and keys",
    "title.attention.qk_norm_all": "QK-norm ({norm}) of all heads' queries and keys",
    "title.attention.scores": "Scores q·k{scaled}{then}",
    "title.scores_scaled": ", divided by √dₖ",
    "title.scores_scaled_by": ", divided by √{dk}",
    "title.scores_capped": ", then soft-capped: {cap} · tanh(s / {cap})",
    "title.scores_biased": ", plus the position bias",
    "title.attention.weights": "Softmax shares",
    "title.attention.weights_causal": "Causal mask and softmax shares",
    "title.attention.mix": "Mix of V by the shares{wo}{ablated}",
    "title.mix_wo": ", then Wo",
    "title.mix_ablated_one": "; ablated (output 0): head {heads}",
    "title.mix_ablated_many": "; ablated (output 0): heads {heads}",
    "title.block.norm1": "Input norm ({norm}), row by row",
    "title.block.resid1": "First residual: X plus the attention output",
    "title.block.norm2": "Second norm ({norm}) before the feed-forward",
    "title.block.ffn": "Feed-forward: {activation} hidden units, then back to d",
    "title.block.resid2": "Second residual: the stream plus the feed-forward output",
    "title.block.router": "Router: each token's {top_k} of {experts} experts",
    "title.block.experts": "Experts: the chosen feed-forwards, weighted and summed",
    "title.block.experts_shared": "Experts: the chosen feed-forwards and the gated shared one, "
                                  "summed",
    "title.block.norm2_parallel": "Second norm ({norm}) of the layer's input, beside attention, "
                                  "for the feed-forward",
    "title.block.resid_parallel": "Parallel residual: the layer's input plus the attention and "
                                  "feed-forward outputs",
    "title.block.norm1_post": "Post-norm ({norm}) of the first residual",
    "title.block.resid2_post": "Second residual: the normed stream plus the feed-forward output",
    "title.block.norm2_post": "Post-norm ({norm}) of the second residual",
    "title.block.norm3": "Norm ({norm}) of the attention's output, before the residual",
    "title.block.norm4": "Norm ({norm}) of the feed-forward's output, before the residual",
    "title.block.cross_norm": "Cross-attention norm ({norm})",
    "title.block.cross_resid": "Cross residual: the stream plus the cross-attention output",
    "title.block.cross_norm_post": "Post-norm ({norm}) of the cross residual",
    "title.encoder.final_norm": "Final norm ({norm})",
    "title.block.final_norm": "Final norm ({norm}) before the vocabulary head",
    "title.head.transform": "Masked-LM transform: dense, activation, then LayerNorm",
    "title.block.logits": "Logits: one score per vocabulary entry",
    "title.block.softcap": "Soft cap: {cap} · tanh(logits / {cap})",
    "title.block.probs": "Probabilities: softmax of the logits",
    "title.block.loss": "Loss: −ln p(target) at every position at once",
    "title.block.sample": "Next token: temperature, top-k, top-p and the draw",
}

NAMES: dict[str, str] = {
    # A block.norm option's and an ffn.activation's display names (a gated feed-forward's by
    # its gate's activation, as the literature names them).
    "name.norm.layernorm": "LayerNorm",
    "name.norm.rmsnorm": "RMSNorm",
    "name.norm.none": "no norm",
    "name.activation.relu": "ReLU",
    "name.activation.gelu": "GELU",
    "name.activation.gelu_tanh": "GELU (tanh form)",
    "name.activation.silu": "SiLU",
    "name.activation.identity": "identity",
    "name.gated.silu": "SwiGLU",
    "name.gated.gelu": "GeGLU",
    "name.gated.gelu_tanh": "GeGLU (tanh form)",
    "name.gated.relu": "ReGLU",
    "name.gated.identity": "bilinear",
    # How a list is written: the separator between its items, the word before its last one.
    "list.separator": ", ",
    "list.and": " and ",
    # A refusal's line: the place in the document, then the problem.
    "refused_at": "{place}: {problem}",
}
