"""A call run in a thread of its own while the caller goes on (no imports
beyond threading: asys.fleet's start uses it before distributed is
imported)."""
import threading


def in_thread(name, fn, *args):
    """fn(*args) in a daemon thread called `name`; returns a function that
    waits for its result (and raises, in the caller's thread, what it
    raised)."""
    box = {}

    def call():
        try:
            box["result"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=call, name=name, daemon=True)
    thread.start()

    def wait():
        thread.join()
        if "error" in box:
            raise box["error"]
        return box["result"]

    return wait
