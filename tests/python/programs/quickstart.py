# In the shape of PyTorch's beginner "Quickstart" tutorial (read, not copied): a dataset, two
# DataLoaders, a Flatten/Linear/ReLU model, CrossEntropyLoss and SGD, the train and test
# loops with the tutorial's prints, then saving the state_dict, loading it into a new model and
# predicting. Run as `python quickstart.py tide|torch DIR`: the same program under each module.
# Deterministic so both print the same: synthetic images instead of FashionMNIST, no
# shuffling, weights set from linspace instead of random initialization.
import importlib
import os
import sys

torch = importlib.import_module(sys.argv[1])
nn = torch.nn
from_ = importlib.import_module(sys.argv[1] + ".utils.data")
DataLoader, Dataset = from_.DataLoader, from_.Dataset
workdir = sys.argv[2]


class Pictures(Dataset):
    """n 1x28x28 images whose label is a function of the index."""

    def __init__(self, n, offset):
        self.n, self.offset = n, offset

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        k = i + self.offset
        image = torch.sin(torch.arange(784, dtype=torch.float32) * (0.01 * (k % 10 + 1)))
        return image.reshape(1, 28, 28), (k * 7) % 10


train_dataloader = DataLoader(Pictures(256, 0), batch_size=64)
test_dataloader = DataLoader(Pictures(128, 1000), batch_size=64)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


def deterministic(model):
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.linspace(-0.05, 0.05, p.numel()).reshape(p.shape))
    return model


model = deterministic(NeuralNetwork()).to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


epochs = 3
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")

path = os.path.join(workdir, "model.pth")
torch.save(model.state_dict(), path)
print("Saved PyTorch Model State to model.pth")
model = NeuralNetwork().to(device)
model.load_state_dict(torch.load(path, weights_only=True))
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
           "Bag", "Ankle boot"]
model.eval()
x, y = Pictures(128, 1000)[0][0], Pictures(128, 1000)[0][1]
with torch.no_grad():
    x = x.to(device)
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
