"""Nsight Compute's --csv output (one row per launch and metric) read back as launches, in launch
order: each a dict of the kernel's name (without its parameter list) and its metrics' values.
Shared by kernel_times.sh and kernel_sums.sh."""
import csv
import io


def launches(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID"')  # Nsight's own lines (the program's output) come first
    found = {}
    for r in csv.DictReader(io.StringIO(text[start:])) if start >= 0 else []:
        k = found.setdefault(r["ID"], {"name": r["Kernel Name"].split("(")[0]})
        k[r["Metric Name"]] = r["Metric Value"].replace(",", "")
    return list(found.values())


def micros(launch):
    """The launch's duration in microseconds (NaN when Nsight gave none)."""
    return float(launch.get("gpu__time_duration.sum", "nan")) / 1e3
