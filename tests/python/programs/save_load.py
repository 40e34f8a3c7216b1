# In the shape of PyTorch's "Save and Load the Model" tutorial and its "saving and loading a
# general checkpoint" recipe (read, not copied): a state_dict saved and loaded into a new
# model, the whole model pickled (weights_only=False), and a checkpoint dict with the epoch,
# the model's and the optimizer's state_dict and the loss, resumed into fresh objects, whose
# next steps match the uninterrupted run's. Run as `python save_load.py tide|torch DIR`.
import importlib
import os
import sys

torch = importlib.import_module(sys.argv[1])
nn = torch.nn
optim = torch.optim
workdir = sys.argv[2]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def deterministic(model):
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape))
    return model


x = torch.linspace(-1, 1, 64).reshape(8, 8)
target = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])
model = deterministic(Net())
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


def step(model, optimizer):
    optimizer.zero_grad()
    loss = loss_fn(model(x), target)
    loss.backward()
    optimizer.step()
    return loss.item()


print("Model's state_dict:")
for name, value in model.state_dict().items():
    print(name, "\t", tuple(value.size()))
print("Optimizer's state_dict:")
for name, value in optimizer.state_dict().items():
    print(name, "\t", value)

for epoch in range(3):
    loss = step(model, optimizer)
    print(f"epoch {epoch} loss {loss:.6f}")

weights = os.path.join(workdir, "model_weights.pth")
torch.save(model.state_dict(), weights)
restored = Net()
print(restored.load_state_dict(torch.load(weights, weights_only=True)))
restored.eval()
print("same outputs:", bool((restored(x) - model(x)).abs().max().item() == 0))

whole = os.path.join(workdir, "model.pth")
torch.save(model, whole)
unpickled = torch.load(whole, weights_only=False)
print(type(unpickled).__name__, "same outputs:",
      bool((unpickled(x) - model(x)).abs().max().item() == 0))

checkpoint_path = os.path.join(workdir, "checkpoint.tar")
torch.save({"epoch": 3, "model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": torch.tensor(loss)},
           checkpoint_path)
resumed_model = Net()
resumed_optimizer = optim.SGD(resumed_model.parameters(), lr=0.1, momentum=0.9)
# torch 1.13's weights_only unpickler has no BINFLOAT (the optimizer's lr): load it in full.
checkpoint = torch.load(checkpoint_path, weights_only=False)
resumed_model.load_state_dict(checkpoint["model_state_dict"])
resumed_optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
print("resumed at epoch", checkpoint["epoch"], f"loss {checkpoint['loss'].item():.6f}")
resumed_model.train()
for epoch in range(3, 6):
    ours, theirs = step(model, optimizer), step(resumed_model, resumed_optimizer)
    print(f"epoch {epoch} loss {ours:.6f} resumed {theirs:.6f}")
