"""Opening a local Hugging Face checkpoint (config.json, *.safetensors, tokenizer.json) as a
version-2 document: gpt2, llama, mistral, qwen2, qwen3, gpt_neox, gemma, phi, phi3, opt,
bert, stablelm and starcoder2. Pure numpy, no Qt."""

from engine.checkpoint.document import choose_layers, import_checkpoint

__all__ = ["choose_layers", "import_checkpoint"]
