"""Train a sequence-to-sequence AMR parser with Smatch on the development set at every evaluation."""

from datasets import Dataset
from transformers import (
    AutoModelForSeq2SeqLM,
    AutoTokenizer,
    DataCollatorForSeq2Seq,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
)

from amreval import read_graphs
from amreval.amr.linearize import linearize
from amreval.hub.trainer import make_compute_metrics


def build_trainer(model, tokenizer, train_graphs, dev_graphs, output_dir="amr-parser", max_length=512, **arguments):
    """A Seq2SeqTrainer from sentences to one-line PENMAN, scored with Smatch at every evaluation."""

    def encode(graphs):
        rows = {"snt": [g.metadata["snt"] for g in graphs], "amr": [linearize(g, "penman") for g in graphs]}
        return Dataset.from_dict(rows).map(
            lambda batch: tokenizer(batch["snt"], text_target=batch["amr"], truncation=True, max_length=max_length),
            batched=True,
            remove_columns=["snt", "amr"],
        )

    args = Seq2SeqTrainingArguments(
        output_dir,
        predict_with_generate=True,  # compute_metrics gets generated ids, not logits
        generation_max_length=max_length,  # a generation cut here is repaired and counted (n_repaired)
        report_to=[],
        **arguments,
    )
    return Seq2SeqTrainer(
        model=model,
        args=args,
        train_dataset=encode(train_graphs),
        eval_dataset=encode(dev_graphs),
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
        processing_class=tokenizer,
        compute_metrics=make_compute_metrics(tokenizer, dev_graphs, linearization="penman"),
    )


if __name__ == "__main__":
    tokenizer = AutoTokenizer.from_pretrained("facebook/bart-base")
    model = AutoModelForSeq2SeqLM.from_pretrained("facebook/bart-base")
    graphs = read_graphs("amr-bank-struct-v3.0.txt")  # the Little Prince: 1562 graphs with their sentences
    trainer = build_trainer(model, tokenizer, graphs[:1400], graphs[1400:], eval_strategy="epoch", num_train_epochs=10)
    trainer.train()
    print(trainer.evaluate())  # eval_smatch_f1, eval_smatch_n_repaired, eval_smatch_n_unreadable, ...
