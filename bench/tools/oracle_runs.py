"""The bench runs an oracle script was given: arguments LABEL=JSON (planner_oracle.py and
tile_oracle.py); a file that cannot be read is reported and left out."""
import json


def load(args):
    runs = {}
    for a in args:
        label, path = a.rsplit("=", 1)
        try:
            with open(path) as f:
                runs[label] = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{label}: unreadable ({e})")
    return runs
