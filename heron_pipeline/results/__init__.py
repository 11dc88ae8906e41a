"""Typed, lossless query results: what gold answers are stored as and `heron query` prints."""

from .codec import Column, ResultSet, ResultTooLarge, decode, dumps, encode, execute_readonly, fetch_result, loads

__all__ = ["Column", "ResultSet", "ResultTooLarge", "decode", "dumps", "encode", "execute_readonly", "fetch_result",
           "loads"]
