"""What a page serves its scripts, for the front end's modules run in Node (no DOM): a stand-in
`document` holding the page's <script type="application/json"> elements."""
import json


def document_stub(served: dict) -> str:
    """JS that defines `globalThis.document` with the page's JSON scripts {id: value}. A module
    that reads them on import must then be imported after it (`await import(...)`)."""
    texts = {k: json.dumps(v) for k, v in served.items()}
    return (f"const served = {json.dumps(texts)};\n"
            "globalThis.document = { getElementById: (id) => (id in served ? { textContent: served[id] } : null) };\n")
