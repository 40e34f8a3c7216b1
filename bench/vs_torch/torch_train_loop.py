"""`tide train`'s loop written in torch (issue 23: `tide train --device cuda` beside the same
loop in torch, time and accuracy): the same model (Flatten, Linear 784-256, ReLU, Linear
256-10), inputs scaled to [0, 1] and normalized with Fashion-MNIST's mean 0.2860 and std 0.3530,
cross entropy, SGD lr 0.02 momentum 0.9, batch 64 shuffled with 2 loader workers and pinned
batches on cuda (tools/tide/train.cpp's defaults), test batches of 1000, test accuracy after
every epoch printed as tide train prints it ("test accuracy: N.NN%").

    torch_train_loop.py --data DIR [--epochs 5] [--device cuda|cpu] [--seed 0] [--out FILE]

DIR holds MNIST-format files (train-images-idx3-ubyte[.gz], ...), as tide train's --data.
--out writes {"seconds", "train_seconds", "epoch_seconds", "accuracy", "torch_version", "device"}."""
import argparse
import gzip
import json
import os
import sys
import time

START = time.perf_counter()

import torch  # noqa: E402 (the import counts in the process's time, as tide's start-up does)
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

MEAN, STD = 0.2860, 0.3530


def read_idx(directory, name):
    for candidate in (name, name + ".gz"):
        path = os.path.join(directory, candidate)
        if os.path.exists(path):
            with (gzip.open if candidate.endswith(".gz") else open)(path, "rb") as f:
                data = f.read()
            dims = data[3]
            shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
            body = bytearray(data[4 + 4 * dims:])
            return torch.frombuffer(body, dtype=torch.uint8).reshape(shape)
    raise FileNotFoundError(f"{directory}: {name}[.gz] is missing")


def dataset(directory, prefix):
    images = read_idx(directory, f"{prefix}-images-idx3-ubyte").float().div_(255).unsqueeze(1)
    labels = read_idx(directory, f"{prefix}-labels-idx1-ubyte").long()
    return TensorDataset(images, labels)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out")
    args = p.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("torch_train_loop: skipped: no CUDA (torch.cuda.is_available() is False)", flush=True)
        return 0
    device = torch.device(args.device)
    torch.manual_seed(args.seed)
    pin = args.device == "cuda"
    train = DataLoader(dataset(args.data, "train"), batch_size=64, shuffle=True, num_workers=2,
                       pin_memory=pin, persistent_workers=True)
    test = DataLoader(dataset(args.data, "t10k"), batch_size=1000, num_workers=2, pin_memory=pin,
                      persistent_workers=True)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(28 * 28, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 10)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    accuracy, epoch_seconds = [], []
    train_start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        t = time.perf_counter()
        model.train()
        total = torch.zeros((), device=device)
        for images, labels in train:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model((images - MEAN) / STD), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        model.eval()
        correct, seen = torch.zeros((), device=device, dtype=torch.long), 0
        with torch.no_grad():
            for images, labels in test:
                images = images.to(device, non_blocking=True)
                labels = labels.to(device, non_blocking=True)
                correct += model((images - MEAN) / STD).argmax(1).eq(labels).sum()
                seen += labels.size(0)
        accuracy.append(100.0 * correct.item() / seen)
        epoch_seconds.append(time.perf_counter() - t)
        print(f"epoch {epoch}/{args.epochs}: loss {total.item() / len(train):.4f}, "
              f"test accuracy: {accuracy[-1]:.2f}% ({epoch_seconds[-1]:.2f} s)", flush=True)
    result = {"seconds": time.perf_counter() - START, "train_seconds": time.perf_counter() - train_start,
              "epoch_seconds": epoch_seconds, "accuracy": accuracy,
              "torch_version": torch.__version__, "device": args.device}
    print(f"torch_train_loop: {result['seconds']:.2f} s in all", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
