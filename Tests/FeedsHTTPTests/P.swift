import Testing
import AsyncHTTPClient
