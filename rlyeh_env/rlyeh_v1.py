"""The retired second version: it played rules version 2, which this package no longer plays."""

from .retired import retired

__getattr__ = retired("rlyeh_v1", rules_version=2)
