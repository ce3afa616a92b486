"""The retired first version: it played rules version 1, which this package no longer plays."""

from .retired import retired

__getattr__ = retired("rlyeh_v0", rules_version=1)
