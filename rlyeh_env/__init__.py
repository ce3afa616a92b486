"""PLACEHOLDER"""
from .engine import GameConfig
from .rlyeh import env, raw_env
