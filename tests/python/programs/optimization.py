# In the shape of PyTorch's "Optimizing Model Parameters" tutorial (read, not copied):
# hyperparameters, a loss function, an optimizer, and the train and test loops, here with Adam
# and a StepLR schedule whose learning rate is printed each epoch. Deterministic data and
# weights, so that tide and torch print the same. Run as `python optimization.py tide|torch DIR`.
import importlib
import sys

torch = importlib.import_module(sys.argv[1])
nn = torch.nn
data = importlib.import_module(sys.argv[1] + ".utils.data")

learning_rate = 1e-2
batch_size = 16
epochs = 4

features = torch.linspace(-2, 2, 96 * 6).reshape(96, 6)
labels = (torch.arange(96) * 5) % 3
train_dataloader = data.DataLoader(data.TensorDataset(features[:64], labels[:64]),
                                   batch_size=batch_size)
test_dataloader = data.DataLoader(data.TensorDataset(features[64:], labels[64:]),
                                  batch_size=batch_size)

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(p=0.0), nn.Linear(32, 3))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.2, 0.25, p.numel()).reshape(p.shape))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            print(f"loss: {loss.item():>7f}  [{batch * batch_size + len(X):>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size, num_batches = len(dataloader.dataset), len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1}, lr {scheduler.get_last_lr()[0]:.5f}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
    scheduler.step()
print("Done!")
